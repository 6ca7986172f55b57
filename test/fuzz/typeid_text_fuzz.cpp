// TypeID text (core/typeid.hpp), as typeid_in and typeid_out use it.
//
// The whole input is text for typeid_parse, judged against the TypeID spec's
// rules spelled out here: split on the last "_"; with one, the prefix must be
// 1-63 characters of a-z and "_" that start and end with a letter; the suffix
// must be 26 characters of the lowercase alphabet (no i, l, o, u, no
// uppercase), the first at most '7'. Accepted text encodes back to itself. The
// first 16 bytes are also a payload to encode under a prefix made from the
// next bytes; the text parses back to the prefix and the payload.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/typeid.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr std::string_view kDigits = "0123456789abcdefghjkmnpqrstvwxyz";

bool prefix_ok(std::string_view prefix) {
    if (prefix.empty() || prefix.size() > 63) return false;
    for (char c : prefix)
        if (!((c >= 'a' && c <= 'z') || c == '_')) return false;
    return prefix.front() != '_' && prefix.back() != '_';
}

bool suffix_ok(std::string_view suffix) {
    if (suffix.size() != 26) return false;
    for (char c : suffix)
        if (kDigits.find(c) == std::string_view::npos) return false;
    return suffix[0] <= '7';
}

void check_parse(std::string_view text) {
    TypeidParsed got = typeid_parse(text);
    std::size_t cut = text.rfind('_');
    bool expected_ok;
    std::string_view prefix, suffix;
    if (cut == std::string_view::npos) {
        suffix = text;
        expected_ok = suffix_ok(suffix);
    } else {
        prefix = text.substr(0, cut);
        suffix = text.substr(cut + 1);
        expected_ok = prefix_ok(prefix) && suffix_ok(suffix);
    }
    FUZZ_CHECK((got.status == TypeidStatus::ok) == expected_ok);
    if (!expected_ok) return;
    FUZZ_CHECK(got.prefix == prefix);
    std::uint8_t payload[16];
    store_be128(got.suffix_decoded.value, payload);
    char out[kTypeidMaxChars];
    std::size_t length = typeid_encode(got.prefix, payload, out);
    FUZZ_CHECK(std::string_view(out, length) == text);
}

void check_encode(Input &input) {
    std::uint8_t payload[16];
    for (auto &b : payload) b = input.byte();
    char prefix[63];
    std::size_t length = input.byte() % 64;
    for (std::size_t i = 0; i < length; ++i)
        prefix[i] = static_cast<char>('a' + input.byte() % 26);
    char out[kTypeidMaxChars];
    std::size_t size = typeid_encode(std::string_view(prefix, length), payload, out);
    FUZZ_CHECK(size == (length ? length + 1 : 0) + 26);
    TypeidParsed back = typeid_parse(std::string_view(out, size));
    FUZZ_CHECK(back.status == TypeidStatus::ok);
    FUZZ_CHECK(back.prefix == std::string_view(prefix, length));
    std::uint8_t again[16];
    store_be128(back.suffix_decoded.value, again);
    FUZZ_CHECK(std::memcmp(again, payload, 16) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_parse(text_of(data, size));
    Input input{data, size};
    check_encode(input);
    return 0;
}
