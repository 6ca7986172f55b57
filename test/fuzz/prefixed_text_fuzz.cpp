// Prefixed-ID text and prefixes (core/prefixed.hpp), put together as
// prefixed_id_in and prefixed_id_out do: split on the last underscore, check
// the prefix, read the body as 25 base36 digits.
//
// The whole input is text: prefixed_split must cut it at its last underscore
// (or report none and leave it whole); prefix_check, on the part before it and
// on the whole text (as prefixed_id_define and the binary input check a bare
// prefix), must accept exactly 1..63 characters of a-z and '_' that start and
// end with a letter, and any problem it reports must be true of the prefix.
// Text that parses formats back as the prefix, '_' and the body in lowercase,
// and parses again to the same prefix and value; changing the body's case
// never changes the verdict. The first 16 bytes are also a value and the rest
// a valid prefix (bytes mapped to a-z and '_'), formatted then parsed back.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base36.hpp"
#include "core/prefixed.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

bool prefix_char(char c) {
    return (c >= 'a' && c <= 'z') || c == '_';
}

// The rule, spelled out here.
bool valid_prefix(std::string_view prefix) {
    if (prefix.empty() || prefix.size() > 63) return false;
    for (char c : prefix)
        if (!prefix_char(c)) return false;
    return prefix.front() != '_' && prefix.back() != '_';
}

void check_prefix(std::string_view prefix) {
    PrefixCheck got = prefix_check(prefix);
    FUZZ_CHECK((got.status == PrefixStatus::ok) == valid_prefix(prefix));
    switch (got.status) {
        case PrefixStatus::ok:
            break;
        case PrefixStatus::empty:
            FUZZ_CHECK(prefix.empty());
            break;
        case PrefixStatus::too_long:
            FUZZ_CHECK(prefix.size() > kPrefixMaxLength);
            break;
        case PrefixStatus::bad_character:
            // The first character that is neither a lowercase letter nor '_'.
            FUZZ_CHECK(got.position < prefix.size() && !prefix_char(prefix[got.position]));
            for (std::size_t i = 0; i < got.position; ++i) FUZZ_CHECK(prefix_char(prefix[i]));
            break;
        case PrefixStatus::starts_or_ends_with_underscore:
            FUZZ_CHECK(!prefix.empty() && (prefix.front() == '_' || prefix.back() == '_'));
            break;
        default:
            FUZZ_CHECK(!"unknown PrefixStatus");
    }
}

struct Parsed {
    bool ok;
    bool has_separator;
    std::string_view prefix;
    Uint128 value;
};

// prefixed_id_in's steps, with the split checked against a scan done here.
Parsed parse(std::string_view text) {
    PrefixedParts parts = prefixed_split(text);
    std::size_t last = std::string_view::npos;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '_') last = i;
    if (last == std::string_view::npos) {
        FUZZ_CHECK(!parts.has_separator);
        FUZZ_CHECK(parts.body.data() == text.data() && parts.body.size() == text.size());
        return {false, false, {}, 0};
    }
    FUZZ_CHECK(parts.has_separator);
    FUZZ_CHECK(parts.prefix.data() == text.data() && parts.prefix.size() == last);
    FUZZ_CHECK(parts.body.data() == text.data() + last + 1 &&
               parts.body.size() == text.size() - last - 1);

    check_prefix(parts.prefix);
    if (prefix_check(parts.prefix).status != PrefixStatus::ok)
        return {false, true, parts.prefix, 0};
    Base36Decoded<Uint128> body = base36_decode128(parts.body);
    if (body.status != Base36Status::ok) return {false, true, parts.prefix, 0};
    return {true, true, parts.prefix, body.value};
}

// prefixed_id_out's steps.
std::string format(std::string_view prefix, Uint128 value) {
    std::string text(prefix);
    text += '_';
    char digits[kBase36Digits128];
    base36_encode128(value, digits);
    text.append(digits, sizeof digits);
    return text;
}

void check_text(std::string_view text) {
    check_prefix(text);
    Parsed got = parse(text);

    // The body's case never changes the verdict or the value.
    std::size_t cut = got.has_separator ? got.prefix.size() + 1 : 0;
    std::string other_case(text);
    for (std::size_t i = cut; i < other_case.size(); ++i)
        other_case[i] = ascii_lower(other_case[i]) == other_case[i] ? ascii_upper(other_case[i])
                                                                    : ascii_lower(other_case[i]);
    Parsed got_other_case = parse(other_case);
    FUZZ_CHECK(got_other_case.ok == got.ok);
    if (!got.ok) return;
    FUZZ_CHECK(got_other_case.value == got.value);

    // Decode then encode: the prefix, '_' and the body in lowercase.
    std::string canonical(text);
    for (std::size_t i = cut; i < canonical.size(); ++i) canonical[i] = ascii_lower(canonical[i]);
    std::string formatted = format(got.prefix, got.value);
    FUZZ_CHECK(formatted == canonical);
    Parsed again = parse(formatted);
    FUZZ_CHECK(again.ok && again.prefix == got.prefix && again.value == got.value);
}

void check_round_trip(Input &input) {
    Uint128 value = input.u128();
    std::string prefix;
    while (input.remaining() > 0 && prefix.size() < kPrefixMaxLength) {
        std::uint8_t b = input.byte() % 27;
        prefix += b == 26 ? '_' : static_cast<char>('a' + b);
    }
    if (prefix.empty()) prefix = "a";
    if (prefix.front() == '_') prefix.front() = 'a';
    if (prefix.back() == '_') prefix.back() = 'z';
    FUZZ_CHECK(prefix_check(prefix).status == PrefixStatus::ok);

    std::string text = format(prefix, value);
    Parsed back = parse(text);
    FUZZ_CHECK(back.ok && back.prefix == prefix && back.value == value);

    // One character more is too long.
    if (prefix.size() == kPrefixMaxLength)
        FUZZ_CHECK(prefix_check(prefix + "a").status == PrefixStatus::too_long);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_text(text_of(data, size));
    Input input{data, size};
    check_round_trip(input);
    return 0;
}
