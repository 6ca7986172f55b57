// Sqids decoding (core/sqids.hpp), as sqids_decode(), sqids_decode_lenient()
// and the NAME_decode functions of sqids_define() use it.
//
// The input: a byte choosing the alphabet (the default, "abc", hex, or the
// next 1 + b % 80 bytes as an alphabet of its own), a byte for the minimum
// length, a byte for the blocklist (none, the default, or a few short words),
// then the text to decode. The alphabet's verdict is judged against the rules
// spelled out here (a byte from 0x80 up, fewer than 3 bytes, the earliest
// repeat). The text is decoded a second way, by a splitting decoder written
// here on std::string with 128-bit arithmetic, which must agree on the
// numbers and on an overflow. Numbers decoded are encoded again: that ID must
// decode to them (the strict decoder's test: the input is canonical when it is
// that ID), be at least the minimum length and hold no blocked word.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/sqids.hpp"
#include "core/sqids_blocklist.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

Sqids coder;
SqidsWord words[kSqidsDefaultBlocklistSize];
char lowered[kSqidsDefaultBlocklistSize][32];

std::string shuffled(std::string a) {
    std::size_t n = a.size();
    for (std::size_t i = 0, j = n - 1; j > 0; ++i, --j)
        std::swap(a[i], a[(i * j + static_cast<unsigned char>(a[i]) + static_cast<unsigned char>(a[j])) % n]);
    return a;
}

struct Reference {
    bool overflow = false;
    std::vector<std::uint64_t> numbers;
};

// The spec's decoding, by splitting the rest of the text at each separator.
Reference reference_decode(const std::string &alphabet, std::string id) {
    Reference r;
    if (id.empty()) return r;
    for (char c : id)
        if (alphabet.find(c) == std::string::npos) return r;
    std::size_t offset = alphabet.find(id[0]);
    std::string a = alphabet.substr(offset) + alphabet.substr(0, offset);
    a = std::string(a.rbegin(), a.rend());
    id = id.substr(1);
    while (!id.empty()) {
        std::size_t cut = id.find(a[0]);
        std::string chunk = id.substr(0, cut);
        if (chunk.empty()) return r;
        std::string digits = a.substr(1);
        unsigned __int128 value = 0;
        for (char c : chunk) {
            value = value * digits.size() + digits.find(c);
            if (value > kSqidsMaxValue) {
                r.overflow = true;
                return r;
            }
        }
        r.numbers.push_back(static_cast<std::uint64_t>(value));
        if (cut == std::string::npos) break;
        a = shuffled(a);
        id = id.substr(cut + 1);
    }
    return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    Input in{data, size};
    std::uint8_t pick = in.byte();
    std::string alphabet;
    if (pick % 4 == 0) alphabet = kSqidsDefaultAlphabet;
    else if (pick % 4 == 1) alphabet = "abc";
    else if (pick % 4 == 2) alphabet = "0123456789abcdef";
    else
        for (std::size_t k = 0, n = 1 + pick % 80; k < n && in.pos < in.size; ++k) alphabet.push_back(in.byte());
    std::uint8_t min_length = in.byte();
    std::uint8_t list = in.byte();
    std::string id(reinterpret_cast<const char *>(data) + in.pos, size - in.pos);

    SqidsAlphabetCheck check = sqids_init(coder, alphabet);
    // The verdict, a second way.
    std::size_t high = std::string::npos;
    for (std::size_t k = 0; k < alphabet.size() && high == std::string::npos; ++k)
        if (static_cast<unsigned char>(alphabet[k]) >= 0x80) high = k;
    std::size_t repeat = std::string::npos, first = 0;
    for (std::size_t k = 1; k < alphabet.size() && repeat == std::string::npos; ++k)
        for (std::size_t j = 0; j < k; ++j)
            if (alphabet[j] == alphabet[k]) {
                repeat = k;
                first = j;
                break;
            }
    if (high != std::string::npos) {
        FUZZ_CHECK(check.status == SqidsAlphabetStatus::multibyte && check.position == high);
        return 0;
    }
    if (alphabet.size() < 3) {
        FUZZ_CHECK(check.status == SqidsAlphabetStatus::too_short);
        return 0;
    }
    if (repeat != std::string::npos) {
        FUZZ_CHECK(check.status == SqidsAlphabetStatus::repeated && check.position == repeat &&
                   check.first == first);
        return 0;
    }
    FUZZ_CHECK(check.status == SqidsAlphabetStatus::ok && coder.length == alphabet.size());
    FUZZ_CHECK(sqids_set_min_length(coder, min_length));
    std::size_t kept = 0;
    if (list % 3 == 1) {
        for (std::string_view w : kSqidsDefaultBlocklist)
            if (sqids_keep_word(coder, w, lowered[kept])) {
                words[kept] = sqids_word(std::string_view(lowered[kept], w.size()));
                ++kept;
            }
    } else if (list % 3 == 2) {
        for (std::string_view w : {"abc", "a1b2", "Cab", "xyz", "0f0"})
            if (sqids_keep_word(coder, w, lowered[kept])) {
                words[kept] = sqids_word(std::string_view(lowered[kept], w.size()));
                ++kept;
            }
    }
    coder.blocklist = words;
    coder.blocklist_size = kept;

    std::string shuffled_alphabet = shuffled(alphabet);
    FUZZ_CHECK(std::string_view(coder.alphabet, coder.length) == shuffled_alphabet);
    std::vector<std::uint64_t> numbers(sqids_decoded_capacity(id.size()));
    SqidsDecodeResult r = sqids_decode(coder, id, numbers.data(), numbers.size());
    Reference ref = reference_decode(shuffled_alphabet, id);
    FUZZ_CHECK(r.status != SqidsDecodeStatus::too_many);
    FUZZ_CHECK((r.status == SqidsDecodeStatus::overflow) == ref.overflow);
    if (ref.overflow) return 0;
    numbers.resize(r.count);
    FUZZ_CHECK(numbers == ref.numbers);
    if (numbers.empty()) return 0;

    std::string again(sqids_encoded_capacity(numbers.size(), min_length), '\0');
    SqidsEncodeResult e = sqids_encode(coder, numbers.data(), numbers.size(), again.data(), again.size());
    if (e.status == SqidsEncodeStatus::exhausted) return 0;
    FUZZ_CHECK(e.status == SqidsEncodeStatus::ok);
    again.resize(e.length);
    FUZZ_CHECK(again.size() >= min_length);
    FUZZ_CHECK(!sqids_blocked(coder, again));
    std::vector<std::uint64_t> back(sqids_decoded_capacity(again.size()));
    SqidsDecodeResult b = sqids_decode(coder, again, back.data(), back.size());
    FUZZ_CHECK(b.status == SqidsDecodeStatus::ok);
    back.resize(b.count);
    FUZZ_CHECK(back == numbers);
    return 0;
}
