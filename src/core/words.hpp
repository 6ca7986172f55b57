// What the positional text forms share (ksuid.cpp: KSUID's 160 bits;
// short_text.cpp: a uuid's 128): base62's alphabet, and a big number held as
// 32-bit words, most significant first, divided or grown one 32-bit factor at a
// time, each step one 64-bit multiplication or division a word.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace idgen::core {

// 0-9A-Za-z, in ASCII order: KSUID's digits and base62's.
inline constexpr char kBase62Alphabet[] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// w = w / divisor; returns the remainder. Words before first are zero and
// are skipped (a long conversion's number shrinks a word every few steps).
template <std::size_t N>
std::uint32_t words_divide(std::array<std::uint32_t, N> &w, std::uint32_t divisor, std::size_t first = 0) noexcept {
    std::uint64_t rest = 0;
    for (std::size_t i = first; i < N; ++i) {
        std::uint64_t part = (rest << 32) | w[i];
        w[i] = static_cast<std::uint32_t>(part / divisor);
        rest = part % divisor;
    }
    return static_cast<std::uint32_t>(rest);
}

// w = w * factor + add; returns false when the result needs another word.
template <std::size_t N>
bool words_multiply_add(std::array<std::uint32_t, N> &w, std::uint32_t factor, std::uint32_t add) noexcept {
    std::uint64_t carry = add;
    for (std::size_t i = N; i-- > 0;) {
        std::uint64_t part = std::uint64_t{w[i]} * factor + carry;
        w[i] = static_cast<std::uint32_t>(part);
        carry = part >> 32;
    }
    return carry == 0;
}

}  // namespace idgen::core
