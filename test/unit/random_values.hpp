// Deterministic pseudo-random 64- and 128-bit values for the core tests: the
// same inputs on every run, so a failure can be replayed.
#pragma once

#include <cstdint>

#include "core/uint128.hpp"

namespace idgen::test {

// splitmix64 with a fixed seed.
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    core::Uint128 next128() { return (core::Uint128{next()} << 64) | next(); }
};

inline core::Uint128 u128(std::uint64_t high, std::uint64_t low) {
    return (core::Uint128{high} << 64) | low;
}

}  // namespace idgen::test
