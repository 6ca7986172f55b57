#include "core/siphash.hpp"

namespace idgen::core {
namespace {

constexpr std::uint64_t rotl(std::uint64_t v, unsigned n) {
    return (v << n) | (v >> (64 - n));
}

// The paper's state v0..v3 and its SipRound (§2.1).
struct SipState {
    std::uint64_t v0, v1, v2, v3;

    void round() {
        v0 += v1;
        v1 = rotl(v1, 13);
        v1 ^= v0;
        v0 = rotl(v0, 32);
        v2 += v3;
        v3 = rotl(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = rotl(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = rotl(v1, 17);
        v1 ^= v2;
        v2 = rotl(v2, 32);
    }
    // One message word through c = 2 rounds.
    void compress(std::uint64_t m) {
        v3 ^= m;
        round();
        round();
        v0 ^= m;
    }
    // d = 4 rounds after the last word.
    std::uint64_t finish() {
        v2 ^= 0xff;
        round();
        round();
        round();
        round();
        return v0 ^ v1 ^ v2 ^ v3;
    }
};

// Initialization: the key XORed into "somepseudorandomlygeneratedbytes".
SipState start(const SipKey &key) {
    return SipState{key.k0 ^ 0x736f6d6570736575ull, key.k1 ^ 0x646f72616e646f6dull,
                    key.k0 ^ 0x6c7967656e657261ull, key.k1 ^ 0x7465646279746573ull};
}

std::uint64_t load_le64(const std::uint8_t *p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

}  // namespace

SipKey sip_key(const std::uint8_t bytes[kSipKeyBytes]) noexcept {
    return SipKey{load_le64(bytes), load_le64(bytes + 8)};
}

std::uint64_t siphash24(const SipKey &key, const std::uint8_t *message, std::size_t length) noexcept {
    SipState s = start(key);
    std::size_t whole = length - length % 8;
    for (std::size_t i = 0; i < whole; i += 8) s.compress(load_le64(message + i));
    // The last word: the remaining bytes, little-endian, with the length's
    // low byte in the top byte.
    std::uint64_t last = static_cast<std::uint64_t>(length & 0xff) << 56;
    for (std::size_t i = whole; i < length; ++i)
        last |= static_cast<std::uint64_t>(message[i]) << (8 * (i - whole));
    s.compress(last);
    return s.finish();
}

std::uint64_t siphash24_u64(const SipKey &key, std::uint64_t word) noexcept {
    SipState s = start(key);
    s.compress(word);
    s.compress(std::uint64_t{8} << 56);
    return s.finish();
}

}  // namespace idgen::core
