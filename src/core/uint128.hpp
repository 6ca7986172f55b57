// 128-bit identifiers (UUID, ULID) as one unsigned integer, loaded from and
// stored to the big-endian byte order both formats use on disk and the wire.
// unsigned __int128 is a GCC and Clang extension, the two compilers PGXS uses.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idgen::core {

using Uint128 = unsigned __int128;

inline constexpr std::size_t kUint128Bytes = 16;
inline constexpr Uint128 kUint128Max = ~Uint128{0};

// Eight bytes as one number, written out so that compilers make it one load
// (and a byte swap where the machine is little-endian).
inline constexpr std::uint64_t load_be64(const std::uint8_t *in) noexcept {
    return std::uint64_t{in[0]} << 56 | std::uint64_t{in[1]} << 48 | std::uint64_t{in[2]} << 40 |
           std::uint64_t{in[3]} << 32 | std::uint64_t{in[4]} << 24 | std::uint64_t{in[5]} << 16 |
           std::uint64_t{in[6]} << 8 | std::uint64_t{in[7]};
}

inline constexpr std::uint64_t load_le64(const std::uint8_t *in) noexcept {
    return std::uint64_t{in[7]} << 56 | std::uint64_t{in[6]} << 48 | std::uint64_t{in[5]} << 40 |
           std::uint64_t{in[4]} << 32 | std::uint64_t{in[3]} << 24 | std::uint64_t{in[2]} << 16 |
           std::uint64_t{in[1]} << 8 | std::uint64_t{in[0]};
}

inline void store_le64(std::uint64_t value, std::uint8_t *out) noexcept {
    for (unsigned i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

inline Uint128 load_be128(const std::uint8_t in[kUint128Bytes]) noexcept {
    Uint128 value = 0;
    for (std::size_t i = 0; i < kUint128Bytes; ++i) value = (value << 8) | in[i];
    return value;
}

inline void store_be128(Uint128 value, std::uint8_t out[kUint128Bytes]) noexcept {
    for (std::size_t i = kUint128Bytes; i-- > 0;) {
        out[i] = static_cast<std::uint8_t>(value);
        value >>= 8;
    }
}

}  // namespace idgen::core
