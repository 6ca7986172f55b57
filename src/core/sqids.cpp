// Sqids (core/sqids.hpp), written from the sqids-spec's description.
#include "core/sqids.hpp"

namespace idgen::core {
namespace {

constexpr char ascii_lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr unsigned byte(char c) noexcept { return static_cast<unsigned char>(c); }

// The spec's deterministic shuffle: position i swaps with
// (i * j + a[i] + a[j]) mod n while j walks down from n - 1.
void shuffle(char *a, std::size_t n) noexcept {
    for (std::size_t i = 0, j = n - 1; j > 0; ++i, --j) {
        std::size_t r = (i * j + byte(a[i]) + byte(a[j])) % n;
        char t = a[i];
        a[i] = a[r];
        a[r] = t;
    }
}

// The alphabet rotated left by offset, then reversed.
void rotate_reverse(const Sqids &s, std::size_t offset, char *a) noexcept {
    std::size_t n = s.length;
    for (std::size_t k = 0; k < n; ++k) a[n - 1 - k] = s.alphabet[(offset + k) % n];
}

bool equal_lower(const char *id, std::string_view word) noexcept {
    for (std::size_t k = 0; k < word.size(); ++k)
        if (ascii_lower(id[k]) != word[k]) return false;
    return true;
}

// One attempt at an increment: the spec's encoding without the blocklist.
std::size_t encode_once(const Sqids &s, const std::uint64_t *numbers, std::size_t count, std::size_t increment,
                        char *out) noexcept {
    std::size_t n = s.length;
    std::uint64_t offset = count;
    for (std::size_t i = 0; i < count; ++i) offset += byte(s.alphabet[numbers[i] % n]) + i;
    offset = (offset % n + increment) % n;
    char a[kSqidsMaxAlphabet];
    rotate_reverse(s, static_cast<std::size_t>(offset), a);
    std::size_t at = 0;
    out[at++] = s.alphabet[offset];  // the prefix: the rotated alphabet's first
    for (std::size_t i = 0; i < count; ++i) {
        char digits[kSqidsMaxNumberChars];
        std::size_t d = 0;
        std::uint64_t v = numbers[i];
        do {
            digits[d++] = a[1 + v % (n - 1)];
            v /= n - 1;
        } while (v > 0);
        while (d > 0) out[at++] = digits[--d];
        if (i + 1 < count) {
            out[at++] = a[0];
            shuffle(a, n);
        }
    }
    if (s.min_length > at) {
        out[at++] = a[0];
        while (s.min_length > at) {
            shuffle(a, n);
            std::size_t take = s.min_length - at;
            if (take > n) take = n;
            for (std::size_t k = 0; k < take; ++k) out[at++] = a[k];
        }
    }
    return at;
}

}  // namespace

SqidsAlphabetCheck sqids_init(Sqids &s, std::string_view alphabet) noexcept {
    s.length = 0;
    s.min_length = 0;
    s.blocklist = nullptr;
    s.blocklist_size = 0;
    for (std::size_t k = 0; k < alphabet.size(); ++k)
        if (byte(alphabet[k]) >= 0x80) return {SqidsAlphabetStatus::multibyte, k, 0};
    if (alphabet.size() < kSqidsMinAlphabet) return {SqidsAlphabetStatus::too_short, 0, 0};
    for (auto &p : s.position) p = -1;
    for (std::size_t k = 0; k < alphabet.size(); ++k) {
        unsigned b = byte(alphabet[k]);
        if (s.position[b] >= 0) return {SqidsAlphabetStatus::repeated, k, static_cast<std::size_t>(s.position[b])};
        s.position[b] = static_cast<std::int16_t>(k);
    }
    // At most 128 distinct bytes below 0x80 reach here.
    std::size_t n = alphabet.size();
    for (std::size_t k = 0; k < n; ++k) s.alphabet[k] = alphabet[k];
    shuffle(s.alphabet, n);
    s.length = static_cast<std::uint8_t>(n);
    for (auto &p : s.position) p = -1;
    for (auto &m : s.lowercase_member) m = false;
    for (std::size_t k = 0; k < n; ++k) {
        s.position[byte(s.alphabet[k])] = static_cast<std::int16_t>(k);
        s.lowercase_member[byte(ascii_lower(s.alphabet[k]))] = true;
    }
    return {SqidsAlphabetStatus::ok, 0, 0};
}

bool sqids_set_min_length(Sqids &s, std::int64_t min_length) noexcept {
    if (min_length < 0 || min_length > static_cast<std::int64_t>(kSqidsMaxMinLength)) return false;
    s.min_length = static_cast<std::uint8_t>(min_length);
    return true;
}

bool sqids_keep_word(const Sqids &s, std::string_view word, char *lower) noexcept {
    bool keep = word.size() >= kSqidsMinWordLength;
    for (std::size_t k = 0; k < word.size(); ++k) {
        lower[k] = ascii_lower(word[k]);
        if (!s.lowercase_member[byte(lower[k])]) keep = false;
    }
    return keep;
}

SqidsWord sqids_word(std::string_view lowercase) noexcept {
    bool digit = false;
    for (char c : lowercase)
        if (c >= '0' && c <= '9') digit = true;
    return {lowercase, digit};
}

bool sqids_blocked(const Sqids &s, std::string_view id) noexcept {
    for (std::size_t w = 0; w < s.blocklist_size; ++w) {
        std::string_view word = s.blocklist[w].text;
        if (word.size() > id.size()) continue;
        if (id.size() <= 3 || word.size() <= 3) {
            if (word.size() == id.size() && equal_lower(id.data(), word)) return true;
        } else if (s.blocklist[w].has_digit) {
            if (equal_lower(id.data(), word) || equal_lower(id.data() + id.size() - word.size(), word)) return true;
        } else {
            for (std::size_t at = 0; at + word.size() <= id.size(); ++at)
                if (equal_lower(id.data() + at, word)) return true;
        }
    }
    return false;
}

std::size_t sqids_encoded_capacity(std::size_t count, std::size_t min_length) noexcept {
    // The prefix, each number's digits and a separator between two.
    std::size_t natural = 1 + count * (kSqidsMaxNumberChars + 1);
    return natural > min_length ? natural : min_length;
}

SqidsEncodeResult sqids_encode(const Sqids &s, const std::uint64_t *numbers, std::size_t count, char *out,
                               std::size_t capacity) noexcept {
    if (count == 0) return {SqidsEncodeStatus::ok, 0, 0};
    for (std::size_t i = 0; i < count; ++i)
        if (numbers[i] > kSqidsMaxValue) return {SqidsEncodeStatus::out_of_range, 0, i};
    if (capacity < sqids_encoded_capacity(count, s.min_length)) return {SqidsEncodeStatus::too_small, 0, 0};
    for (std::size_t increment = 0; increment <= s.length; ++increment) {
        std::size_t length = encode_once(s, numbers, count, increment, out);
        if (!sqids_blocked(s, std::string_view(out, length))) return {SqidsEncodeStatus::ok, length, 0};
    }
    return {SqidsEncodeStatus::exhausted, 0, 0};
}

std::size_t sqids_decoded_capacity(std::size_t id_bytes) noexcept { return id_bytes / 2 + 1; }

SqidsDecodeResult sqids_decode(const Sqids &s, std::string_view id, std::uint64_t *numbers,
                               std::size_t capacity) noexcept {
    if (id.empty()) return {SqidsDecodeStatus::ok, 0};
    for (char c : id)
        if (s.position[byte(c)] < 0) return {SqidsDecodeStatus::ok, 0};
    std::size_t n = s.length;
    char a[kSqidsMaxAlphabet];
    rotate_reverse(s, static_cast<std::size_t>(s.position[byte(id[0])]), a);
    std::int16_t digit[256];
    std::size_t count = 0;
    std::size_t at = 1;
    while (at < id.size()) {
        char separator = a[0];
        std::size_t end = at;
        while (end < id.size() && id[end] != separator) ++end;
        if (end == at) break;  // an empty chunk ends the numbers
        for (auto &d : digit) d = -1;
        for (std::size_t k = 1; k < n; ++k) digit[byte(a[k])] = static_cast<std::int16_t>(k - 1);
        std::uint64_t base = n - 1;
        std::uint64_t value = 0;
        for (std::size_t k = at; k < end; ++k) {
            std::uint64_t d = static_cast<std::uint64_t>(digit[byte(id[k])]);
            if (value > (kSqidsMaxValue - d) / base) return {SqidsDecodeStatus::overflow, count};
            value = value * base + d;
        }
        if (count == capacity) return {SqidsDecodeStatus::too_many, count};
        numbers[count++] = value;
        if (end == id.size()) break;
        shuffle(a, n);
        at = end + 1;
    }
    return {SqidsDecodeStatus::ok, count};
}

}  // namespace idgen::core
