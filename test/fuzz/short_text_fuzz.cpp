// Short text forms of 128-bit values (core/short_text.hpp), as uuid_decode
// and ulid_decode use them.
//
// The first byte picks the form (mod 6), the rest is text for
// short_text_decode, judged against rules spelled out here: the first byte
// outside the form's alphabet (base32: either case) is reported, then a
// length other than 22 (base32: 26), then a value above 2^128 - 1 (computed
// here by byte-wise long multiplication; base32: a first digit above 7), then
// for base64url a last character with its low 4 bits set; anything else
// decodes to that value and encodes back to the text (base32: in uppercase).
// The next 32 bytes are also two values to encode: the text decodes back, and
// for the forms whose alphabet ascends, text order is value order.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/short_text.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kAlphabets[] = {
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
    "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ",
    "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
};
constexpr bool kAscends[] = {true, true, false, true, false, true};

int digit_of(std::size_t form, char c) {
    if (form == 5) c = ascii_upper(c);
    std::size_t at = kAlphabets[form].find(c);
    return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

// bytes = bytes * base + digit, big-endian over 17 bytes (one spare for overflow).
void multiply_add(std::uint8_t bytes[17], unsigned base, unsigned digit) {
    unsigned carry = digit;
    for (std::size_t i = 17; i-- > 0;) {
        unsigned part = bytes[i] * base + carry;
        bytes[i] = static_cast<std::uint8_t>(part & 0xFF);
        carry = part >> 8;
    }
    if (carry) bytes[0] = 0xFF;  // stays "too large"
}

void check_decode(std::size_t form, std::string_view text) {
    auto f = static_cast<ShortTextForm>(form);
    ShortTextDecoded got = short_text_decode(f, text);
    for (std::size_t i = 0; i < text.size(); ++i)
        if (digit_of(form, text[i]) < 0) {
            FUZZ_CHECK(got.status == ShortTextStatus::bad_character && got.position == i);
            return;
        }
    std::size_t length = form == 5 ? 26 : 22;
    if (text.size() != length) {
        FUZZ_CHECK(got.status == ShortTextStatus::wrong_length);
        return;
    }
    std::uint8_t bytes[17] = {};
    if (form == 4) {
        // 132 bits: the value, then 4 bits that must be zero.
        for (char c : text) multiply_add(bytes, 64, static_cast<unsigned>(digit_of(form, c)));
        if ((digit_of(form, text[21]) & 15) != 0) {
            FUZZ_CHECK(got.status == ShortTextStatus::trailing_bits && got.position == 21);
            return;
        }
        // shift right by 4
        for (std::size_t i = 17; i-- > 0;) bytes[i] = static_cast<std::uint8_t>((bytes[i] >> 4) | (i > 0 ? bytes[i - 1] << 4 : 0));
    } else {
        for (char c : text) multiply_add(bytes, static_cast<unsigned>(kAlphabets[form].size()),
                                         static_cast<unsigned>(digit_of(form, c)));
    }
    if (bytes[0] != 0) {
        FUZZ_CHECK(got.status == ShortTextStatus::too_large);
        return;
    }
    FUZZ_CHECK(got.status == ShortTextStatus::ok);
    FUZZ_CHECK(got.value == load_be128(bytes + 1));
    char out[kShortTextMaxLength];
    FUZZ_CHECK(short_text_encode(f, got.value, out) == length);
    for (std::size_t i = 0; i < length; ++i) FUZZ_CHECK(out[i] == (form == 5 ? ascii_upper(text[i]) : text[i]));
}

void check_encode(std::size_t form, Uint128 a, Uint128 b) {
    auto f = static_cast<ShortTextForm>(form);
    char ta[kShortTextMaxLength], tb[kShortTextMaxLength];
    std::size_t n = short_text_encode(f, a, ta);
    FUZZ_CHECK(n == short_text_length(f) && short_text_encode(f, b, tb) == n);
    for (std::size_t i = 0; i < n; ++i) FUZZ_CHECK(digit_of(form, ta[i]) >= 0);
    ShortTextDecoded back = short_text_decode(f, std::string_view(ta, n));
    FUZZ_CHECK(back.status == ShortTextStatus::ok && back.value == a);
    if (kAscends[form]) {
        int order = std::memcmp(ta, tb, n);
        FUZZ_CHECK((order < 0) == (a < b) && (order == 0) == (a == b));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) return 0;
    std::size_t form = data[0] % kShortTextFormCount;
    check_decode(form, text_of(data + 1, size - 1));
    Input input{data + 1, size - 1};
    Uint128 a = input.u128(), b = input.u128();
    check_encode(form, a, b);
    return 0;
}
