// Shared by the libFuzzer targets in test/fuzz: a property check that stops
// the run where libFuzzer sees it (a trap, reported as a crash with the input
// saved), and small text helpers written here rather than taken from the code
// under test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "core/uint128.hpp"

// FUZZ_CHECK(cond): a property of the code under test; a violation prints the
// condition and traps, which libFuzzer reports with the input that caused it.
#define FUZZ_CHECK(cond)                                                                         \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            std::fprintf(stderr, "property violated at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            __builtin_trap();                                                                    \
        }                                                                                        \
    } while (0)

namespace idgen::fuzz {

// The fuzzer's input, read front to back; reads past the end give zeros.
struct Input {
    const std::uint8_t *data;
    std::size_t size;
    std::size_t pos = 0;

    std::uint8_t byte() {
        return pos < size ? data[pos++] : 0;
    }

    std::uint64_t u64() {
        std::uint64_t value = 0;
        for (int i = 0; i < 8; ++i) value = (value << 8) | byte();
        return value;
    }

    core::Uint128 u128() {
        core::Uint128 high = u64();
        return (high << 64) | u64();
    }

    std::size_t remaining() const {
        return size - pos;
    }
};

inline std::string_view text_of(const std::uint8_t *data, std::size_t size) {
    return std::string_view(reinterpret_cast<const char *>(data), size);
}

inline char ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline char ascii_upper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// True when a and b are equal after ASCII lowercasing.
inline bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

// Copies text into out with every ASCII letter in one case; out holds at least text.size().
inline std::string_view with_case(std::string_view text, char *out, bool upper) {
    for (std::size_t i = 0; i < text.size(); ++i)
        out[i] = upper ? ascii_upper(text[i]) : ascii_lower(text[i]);
    return std::string_view(out, text.size());
}

}  // namespace idgen::fuzz
