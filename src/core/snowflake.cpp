#include "core/snowflake.hpp"

#include "core/list_parse.hpp"

namespace idgen::core {

SnowflakeNext snowflake_next(SnowflakeLayout layout, SnowflakeStamp last, std::int64_t now_ms,
                             std::int64_t max_lead_ms) noexcept {
    if (now_ms < 0) return {SnowflakeStep::before_epoch, 0, 0};
    // Past the last millisecond nothing can be issued; clamping keeps the shift in range.
    std::int64_t clock_ms = now_ms > kSnowflakeMaxMs ? kSnowflakeMaxMs + 1 : now_ms;
    SnowflakeStamp from_clock = static_cast<SnowflakeStamp>(clock_ms) << layout.seq_bits;
    SnowflakeStamp next = from_clock > last ? from_clock : last + 1;
    std::int64_t next_ms = snowflake_stamp_ms(layout, next);
    if (next_ms > kSnowflakeMaxMs) return {SnowflakeStep::exhausted, 0, 0};
    std::int64_t lead = next_ms - now_ms;
    if (lead <= max_lead_ms) return {SnowflakeStep::issue, next, lead};
    if (lead == max_lead_ms + 1) return {SnowflakeStep::wait, 0, lead};
    return {SnowflakeStep::clock_behind, 0, lead};
}

std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) noexcept {
    // Count from 0000-03-01 so that the leap day ends a year, in 400-year eras.
    std::int64_t y = month <= 2 ? year - 1 : year;
    std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    std::int64_t year_of_era = y - era * 400;
    std::int64_t month_from_march = month > 2 ? month - 3 : month + 9;
    std::int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    std::int64_t day_of_era =
        year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    constexpr std::int64_t kDaysTo1970 = 719468;
    return era * 146097 + day_of_era - kDaysTo1970;
}

namespace {

// Reads exactly count digits at pos into value.
bool read_digits(std::string_view text, std::size_t &pos, int count, int &value) noexcept {
    if (pos + static_cast<std::size_t>(count) > text.size()) return false;
    value = 0;
    for (int i = 0; i < count; ++i) {
        char c = text[pos + static_cast<std::size_t>(i)];
        if (c < '0' || c > '9') return false;
        value = value * 10 + (c - '0');
    }
    pos += static_cast<std::size_t>(count);
    return true;
}

bool accept(std::string_view text, std::size_t &pos, char c) noexcept {
    if (pos < text.size() && text[pos] == c) {
        ++pos;
        return true;
    }
    return false;
}

bool is_leap(int year) noexcept {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month) noexcept {
    constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap(year) ? 29 : kDays[month - 1];
}

}  // namespace

namespace {

// Sets the bits of shards first..last (inclusive), a word at a time.
void set_range(SnowflakeShardSet &set, std::int32_t first, std::int32_t last) noexcept {
    for (std::int32_t word = first / 64; word <= last / 64; ++word) {
        std::int32_t lo = word * 64 > first ? 0 : first % 64;
        std::int32_t hi = word * 64 + 63 < last ? 63 : last % 64;
        std::uint64_t upper = hi == 63 ? ~std::uint64_t{0} : (std::uint64_t{1} << (hi + 1)) - 1;
        set.words[word] |= upper & ~((std::uint64_t{1} << lo) - 1);
    }
}

}  // namespace

ShardListParse snowflake_parse_shard_list(std::string_view text, SnowflakeShardSet &out) noexcept {
    for (std::uint64_t &word : out.words) word = 0;
    std::size_t pos = 0;
    list_skip_blanks(text, pos);
    if (pos == text.size()) return {ShardListError::none, 0, 0};
    for (;;) {
        // One item: blanks, N or N-M, blanks, then a comma or the end.
        list_skip_blanks(text, pos);
        std::size_t begin = pos;
        std::size_t end = text.find(',', pos);
        if (end == std::string_view::npos) end = text.size();
        std::size_t trimmed = end;
        while (trimmed > begin && list_is_blank(text[trimmed - 1])) --trimmed;
        if (trimmed == begin) return {ShardListError::empty_item, begin, 0};
        ShardListParse bad{ShardListError::syntax, begin, trimmed - begin};
        std::int32_t first = 0, last = 0;
        if (!list_read_number(text, pos, kSnowflakeMaxShard, first)) return bad;
        list_skip_blanks(text, pos);
        last = first;
        if (pos < trimmed && text[pos] == '-') {
            ++pos;
            list_skip_blanks(text, pos);
            if (!list_read_number(text, pos, kSnowflakeMaxShard, last)) return bad;
            list_skip_blanks(text, pos);
        }
        if (pos != end) return bad;
        if (first > kSnowflakeMaxShard || last > kSnowflakeMaxShard) {
            bad.error = ShardListError::out_of_range;
            return bad;
        }
        if (last < first) {
            bad.error = ShardListError::descending;
            return bad;
        }
        set_range(out, first, last);
        if (end == text.size()) return {ShardListError::none, 0, 0};
        pos = end + 1;
    }
}

std::optional<std::int64_t> snowflake_parse_epoch(std::string_view text) noexcept {
    std::size_t pos = 0;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0;
    if (!read_digits(text, pos, 4, year) || !accept(text, pos, '-') ||
        !read_digits(text, pos, 2, month) || !accept(text, pos, '-') ||
        !read_digits(text, pos, 2, day))
        return std::nullopt;
    if (accept(text, pos, ' ') || accept(text, pos, 'T')) {
        if (!read_digits(text, pos, 2, hour) || !accept(text, pos, ':') ||
            !read_digits(text, pos, 2, minute))
            return std::nullopt;
        if (accept(text, pos, ':')) {
            if (!read_digits(text, pos, 2, second)) return std::nullopt;
            if (accept(text, pos, '.')) {
                int digits = 0;
                while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
                    if (++digits > 3) return std::nullopt;
                    millis = millis * 10 + (text[pos++] - '0');
                }
                if (digits == 0) return std::nullopt;
                for (; digits < 3; ++digits) millis *= 10;
            }
        }
    }
    if (!accept(text, pos, 'Z') && accept(text, pos, '+')) {
        int zone = 0;
        if (!read_digits(text, pos, 2, zone) || zone != 0) return std::nullopt;
        if (accept(text, pos, ':') && (!read_digits(text, pos, 2, zone) || zone != 0))
            return std::nullopt;
    }
    if (pos != text.size()) return std::nullopt;
    if (year < 1970 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) ||
        hour > 23 || minute > 59 || second > 59)
        return std::nullopt;
    std::int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    return ((days * 24 + hour) * 60 + minute) * std::int64_t{60'000} + second * 1000 + millis;
}

}  // namespace idgen::core
