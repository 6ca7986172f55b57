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
