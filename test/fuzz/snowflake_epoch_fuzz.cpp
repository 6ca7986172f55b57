// The idgen.snowflake_epoch setting's parser, snowflake_parse_epoch
// (core/snowflake.hpp).
//
// The whole input is text, judged against a grammar and calendar written here
// a different way: it must be one of the shapes 'YYYY-MM-DD', then optionally
// ' HH:MM', ' HH:MM:SS' or ' HH:MM:SS.f' to '.fff' (or 'T' for the space),
// then optionally 'Z', '+00' or '+00:00', with a real date from 1970 to 9999
// and a real time of day; everything else is rejected. An accepted text gives
// the Unix milliseconds worked out here (days counted by a different formula),
// within [1970-01-01, 9999-12-31 23:59:59.999]; those milliseconds, written
// back here as 'YYYY-MM-DD HH:MM:SS.fff', give the input's own fields (its
// canonical form), which parse again to the same value. The first 9 bytes are
// also a value in range and a spelling of it (separator, zone, precision),
// which must parse back to that value.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "core/snowflake.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::int64_t kMsPerDay = 86'400'000;

bool leap(std::int64_t year) {
    return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

int month_days(std::int64_t year, int month) {
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return kDays[month - 1] + (month == 2 && leap(year) ? 1 : 0);
}

// Days from 0001-01-01 to January 1st of year (proleptic Gregorian).
std::int64_t days_before_year(std::int64_t year) {
    std::int64_t y = year - 1;
    return 365 * y + y / 4 - y / 100 + y / 400;
}

std::int64_t days_since_1970(std::int64_t year, int month, int day) {
    std::int64_t days = days_before_year(year) - days_before_year(1970);
    for (int m = 1; m < month; ++m) days += month_days(year, m);
    return days + day - 1;
}

// 9999-12-31 23:59:59.999, the last instant an epoch can name.
const std::int64_t kMaxMs = days_since_1970(10000, 1, 1) * kMsPerDay - 1;

// 'YYYY-MM-DD HH:MM:SS.fff' of Unix milliseconds 0..kMaxMs.
std::string write_utc(std::int64_t ms) {
    std::int64_t days = ms / kMsPerDay, rest = ms % kMsPerDay;
    std::int64_t year = 1970;
    // 400 Gregorian years always have 146097 days.
    year += days / 146097 * 400;
    days %= 146097;
    while (days >= (leap(year) ? 366 : 365)) days -= leap(year++) ? 366 : 365;
    int month = 1;
    while (days >= month_days(year, month)) days -= month_days(year, month++);
    char out[32];
    std::snprintf(out, sizeof out, "%04lld-%02d-%02lld %02lld:%02lld:%02lld.%03lld",
                  static_cast<long long>(year), month, static_cast<long long>(days + 1),
                  static_cast<long long>(rest / 3'600'000),
                  static_cast<long long>(rest / 60'000 % 60),
                  static_cast<long long>(rest / 1000 % 60), static_cast<long long>(rest % 1000));
    return out;
}

// Does text have this shape? 'd' is any digit, '?' a space or 'T'.
bool matches(std::string_view text, std::string_view shape) {
    if (text.size() != shape.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char t = text[i], s = shape[i];
        bool ok = s == 'd' ? t >= '0' && t <= '9' : s == '?' ? t == ' ' || t == 'T' : t == s;
        if (!ok) return false;
    }
    return true;
}

int number_at(std::string_view text, std::size_t pos, std::size_t count) {
    int value = 0;
    for (std::size_t i = 0; i < count; ++i) value = value * 10 + (text[pos + i] - '0');
    return value;
}

struct Expected {
    std::int64_t ms;
    std::string canonical;
};

// The oracle: the value and canonical text of an acceptable epoch, or nullopt.
std::optional<Expected> expected_of(std::string_view text) {
    static constexpr std::string_view kTimes[] = {
        "", "?dd:dd", "?dd:dd:dd", "?dd:dd:dd.d", "?dd:dd:dd.dd", "?dd:dd:dd.ddd"};
    static constexpr std::string_view kZones[] = {"", "Z", "+00", "+00:00"};
    for (std::string_view time : kTimes) {
        for (std::string_view zone : kZones) {
            if (text.size() != 10 + time.size() + zone.size()) continue;
            std::string shape = "dddd-dd-dd";
            shape.append(time).append(zone);
            if (!matches(text, shape)) continue;
            int year = number_at(text, 0, 4), month = number_at(text, 5, 2),
                day = number_at(text, 8, 2);
            int hour = 0, minute = 0, second = 0, millis = 0;
            if (time.size() >= 6) hour = number_at(text, 11, 2), minute = number_at(text, 14, 2);
            if (time.size() >= 9) second = number_at(text, 17, 2);
            if (time.size() >= 11) {
                std::size_t digits = time.size() - 10;
                millis = number_at(text, 20, digits);
                for (; digits < 3; ++digits) millis *= 10;
            }
            if (year < 1970 || month < 1 || month > 12 || day < 1 ||
                day > month_days(year, month) || hour > 23 || minute > 59 || second > 59)
                return std::nullopt;
            std::int64_t ms = days_since_1970(year, month, day) * kMsPerDay +
                              ((hour * 60 + minute) * 60 + second) * std::int64_t{1000} + millis;
            char canonical[32];
            std::snprintf(canonical, sizeof canonical, "%.10s %02d:%02d:%02d.%03d", text.data(),
                          hour, minute, second, millis);
            return Expected{ms, canonical};
        }
    }
    return std::nullopt;
}

void check_text(std::string_view text) {
    std::optional<std::int64_t> got = snowflake_parse_epoch(text);
    std::optional<Expected> expected = expected_of(text);
    FUZZ_CHECK(got.has_value() == expected.has_value());
    if (!got) return;
    FUZZ_CHECK(*got >= 0 && *got <= kMaxMs);
    FUZZ_CHECK(*got == expected->ms);

    // Decode then encode: the input's fields in the canonical spelling,
    // which reads back the same, in UTC's other spelling too.
    std::string written = write_utc(*got);
    FUZZ_CHECK(written == expected->canonical);
    FUZZ_CHECK(snowflake_parse_epoch(written) == got);
    written[10] = 'T';
    written += "Z";
    FUZZ_CHECK(snowflake_parse_epoch(written) == got);
}

void check_round_trip(Input &input) {
    std::int64_t ms =
        static_cast<std::int64_t>(input.u64() % static_cast<std::uint64_t>(kMaxMs + 1));
    std::uint8_t style = input.byte();
    std::string text = write_utc(ms);  // 'YYYY-MM-DD HH:MM:SS.fff'
    if (style & 1) text[10] = 'T';
    if (style & 2) {  // as short as the value allows
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text.pop_back();
        if (text.size() == 19 && text.compare(16, 3, ":00") == 0) text.resize(16);
        if (text.size() == 16 && (style & 4) && text.compare(10, 6, " 00:00") == 0) text.resize(10);
    }
    static constexpr const char *kZones[] = {"", "Z", "+00", "+00:00"};
    text += kZones[(style >> 3) & 3];
    FUZZ_CHECK(snowflake_parse_epoch(text) == ms);
    FUZZ_CHECK(expected_of(text).has_value() && expected_of(text)->ms == ms);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_text(text_of(data, size));
    Input input{data, size};
    check_round_trip(input);
    return 0;
}
