#include "core/feistel63.hpp"

namespace idgen::core {
namespace {

// Bytes 6 and 7 of every round function's message: 'F', 'N'.
constexpr std::uint64_t kRoundTag = std::uint64_t{0x4e46} << 48;

std::uint64_t round_function(const SipKey &key, unsigned width, unsigned round, std::uint64_t half) {
    std::uint64_t message = half | (std::uint64_t{round} << 32) | (std::uint64_t{width} << 40) | kRoundTag;
    return siphash24_u64(key, message);
}

struct Halves {
    unsigned hi_bits, lo_bits;
    std::uint64_t hi_mask, lo_mask;
};

constexpr Halves halves(unsigned width) {
    unsigned hi_bits = width / 2;
    unsigned lo_bits = width - hi_bits;
    return Halves{hi_bits, lo_bits, (std::uint64_t{1} << hi_bits) - 1, (std::uint64_t{1} << lo_bits) - 1};
}

// Round i on (hi, lo): even rounds change hi, odd rounds lo.
void feistel_round(const SipKey &key, unsigned width, const Halves &h, unsigned i, std::uint64_t &hi,
                   std::uint64_t &lo) {
    if (i % 2 == 0)
        hi ^= round_function(key, width, i, lo) & h.hi_mask;
    else
        lo ^= round_function(key, width, i, hi) & h.lo_mask;
}

}  // namespace

std::uint64_t feistel_forward(const SipKey &key, unsigned width, std::uint64_t x) noexcept {
    const Halves h = halves(width);
    std::uint64_t hi = (x >> h.lo_bits) & h.hi_mask;
    std::uint64_t lo = x & h.lo_mask;
    for (unsigned i = 0; i < kFeistelRounds; ++i) feistel_round(key, width, h, i, hi, lo);
    return (hi << h.lo_bits) | lo;
}

std::uint64_t feistel_backward(const SipKey &key, unsigned width, std::uint64_t y) noexcept {
    const Halves h = halves(width);
    std::uint64_t hi = (y >> h.lo_bits) & h.hi_mask;
    std::uint64_t lo = y & h.lo_mask;
    for (unsigned i = kFeistelRounds; i-- > 0;) feistel_round(key, width, h, i, hi, lo);
    return (hi << h.lo_bits) | lo;
}

// Cycle-walking: 0 is outside the range; the value that lands there goes on
// to the image of 0, which no value in the range has.
std::uint64_t feistel_nonzero_forward(const SipKey &key, unsigned width, std::uint64_t x) noexcept {
    std::uint64_t y = feistel_forward(key, width, x);
    return y != 0 ? y : feistel_forward(key, width, 0);
}

std::uint64_t feistel_nonzero_backward(const SipKey &key, unsigned width, std::uint64_t y) noexcept {
    std::uint64_t x = feistel_backward(key, width, y);
    return x != 0 ? x : feistel_backward(key, width, 0);
}

std::optional<std::int64_t> feistel63_encode(const SipKey &key, std::int64_t id) noexcept {
    if (id < kFeistel63Min) return std::nullopt;
    return static_cast<std::int64_t>(
        feistel_nonzero_forward(key, kFeistel63Bits, static_cast<std::uint64_t>(id)));
}

std::optional<std::int64_t> feistel63_decode(const SipKey &key, std::int64_t public_id) noexcept {
    if (public_id < kFeistel63Min) return std::nullopt;
    return static_cast<std::int64_t>(
        feistel_nonzero_backward(key, kFeistel63Bits, static_cast<std::uint64_t>(public_id)));
}

}  // namespace idgen::core
