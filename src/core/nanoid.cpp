#include "core/nanoid.hpp"

namespace idgen::core {
namespace {

std::string_view character(const NanoidAlphabet &a, std::size_t index) {
    return std::string_view(a.characters[index], a.lengths[index]);
}

// Byte order (unsigned), a prefix before what it starts.
int compare(std::string_view x, std::string_view y) {
    std::size_t n = x.size() < y.size() ? x.size() : y.size();
    for (std::size_t i = 0; i < n; ++i) {
        auto cx = static_cast<unsigned char>(x[i]);
        auto cy = static_cast<unsigned char>(y[i]);
        if (cx != cy) return cx < cy ? -1 : 1;
    }
    return x.size() == y.size() ? 0 : (x.size() < y.size() ? -1 : 1);
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() && compare(text.substr(0, prefix.size()), prefix) == 0;
}

}  // namespace

void nanoid_alphabet_start(NanoidAlphabet &alphabet) noexcept {
    alphabet.count = 0;
    alphabet.mask = 0;
    alphabet.single_byte = true;
    for (auto &index : alphabet.byte_index) index = -1;
}

NanoidAlphabetStatus nanoid_alphabet_add(NanoidAlphabet &alphabet, std::string_view c) noexcept {
    if (c.empty() || c.size() > kNanoidMaxCharacterBytes) return NanoidAlphabetStatus::bad_character;
    if (alphabet.count >= kNanoidMaxAlphabet) return NanoidAlphabetStatus::too_many;
    std::size_t index = alphabet.count++;
    alphabet.lengths[index] = static_cast<std::uint8_t>(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) alphabet.characters[index][i] = c[i];
    if (c.size() != 1) alphabet.single_byte = false;
    return NanoidAlphabetStatus::ok;
}

NanoidAlphabetCheck nanoid_alphabet_finish(NanoidAlphabet &a) noexcept {
    if (a.count < kNanoidMinAlphabet) return {NanoidAlphabetStatus::too_few, 0, 0};
    // Insertion sort, stable: equal characters stay in alphabet order.
    for (std::size_t i = 0; i < a.count; ++i) {
        auto index = static_cast<std::uint8_t>(i);
        std::size_t j = i;
        while (j > 0 && compare(character(a, a.sorted[j - 1]), character(a, index)) > 0) {
            a.sorted[j] = a.sorted[j - 1];
            --j;
        }
        a.sorted[j] = index;
    }
    // A repeat or a prefix lies next to what it repeats or starts in byte
    // order (whatever lies between a prefix and a string it starts starts with
    // it too), so one exists when an adjacent pair shows one. Which pair to
    // report (the earliest later position, then the earliest earlier one) is
    // then found by comparing every pair: only a refused alphabet pays for it.
    bool problem = false;
    for (std::size_t i = 1; i < a.count && !problem; ++i)
        problem = starts_with(character(a, a.sorted[i]), character(a, a.sorted[i - 1]));
    if (problem) {
        for (std::size_t second = 1; second < a.count; ++second)
            for (std::size_t first = 0; first < second; ++first) {
                std::string_view x = character(a, first), y = character(a, second);
                if (starts_with(x, y) || starts_with(y, x))
                    return {x.size() == y.size() ? NanoidAlphabetStatus::repeated
                                                 : NanoidAlphabetStatus::bad_character,
                            first, second};
            }
    }
    unsigned mask = 1;
    while (mask < a.count - 1u) mask = (mask << 1) | 1;
    a.mask = static_cast<std::uint8_t>(mask);
    if (a.single_byte)
        for (std::size_t i = 0; i < a.count; ++i)
            a.byte_index[static_cast<unsigned char>(a.characters[i][0])] = static_cast<std::int16_t>(i);
    return {NanoidAlphabetStatus::ok, 0, 0};
}

void nanoid_default_alphabet(NanoidAlphabet &alphabet) noexcept {
    nanoid_alphabet_start(alphabet);
    for (const char *c = kNanoidDefaultAlphabet; *c != '\0'; ++c)
        nanoid_alphabet_add(alphabet, std::string_view(c, 1));
    nanoid_alphabet_finish(alphabet);
}

std::size_t nanoid_fill(const NanoidAlphabet &a, const std::uint8_t *random, std::size_t random_len,
                        char *out, std::size_t size, NanoidProgress &progress) noexcept {
    std::size_t used = 0;
    while (progress.characters < size && used < random_len) {
        unsigned pick = random[used++] & a.mask;
        if (pick >= a.count) continue;
        std::size_t length = a.lengths[pick];
        for (std::size_t i = 0; i < length; ++i) out[progress.bytes + i] = a.characters[pick][i];
        progress.bytes += length;
        ++progress.characters;
    }
    return used;
}

std::size_t nanoid_expected_bytes(const NanoidAlphabet &a, std::size_t characters) noexcept {
    return (characters * (a.mask + 1u) + a.count - 1) / a.count;
}

int nanoid_character_at(const NanoidAlphabet &a, std::string_view text) noexcept {
    if (text.empty()) return -1;
    if (a.single_byte) return a.byte_index[static_cast<unsigned char>(text[0])];
    // The greatest character not above text: the one text starts with, if any
    // (no character is a prefix of another).
    std::size_t low = 0, high = a.count;  // characters[sorted[< low]] <= text < characters[sorted[>= high]]
    while (low < high) {
        std::size_t mid = low + (high - low) / 2;
        if (compare(character(a, a.sorted[mid]), text) <= 0)
            low = mid + 1;
        else
            high = mid;
    }
    if (low == 0) return -1;
    std::size_t index = a.sorted[low - 1];
    return starts_with(text, character(a, index)) ? static_cast<int>(index) : -1;
}

bool nanoid_valid(const NanoidAlphabet &a, std::string_view text, std::size_t size) noexcept {
    std::size_t characters = 0;
    while (!text.empty()) {
        int index = nanoid_character_at(a, text);
        if (index < 0 || ++characters > size) return false;
        text.remove_prefix(a.lengths[index]);
    }
    return characters == size;
}

}  // namespace idgen::core
