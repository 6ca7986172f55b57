// This backend's CSPRNG: ChaCha20 seeded lazily from pg_strong_random() in the
// backend itself (never in the postmaster, whose memory every backend copies),
// re-seeded when the process id changes and after every 1 MiB of output.
#include "core/chacha20.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

core::ChaChaRng backend_rng;
int seeded_pid = 0;

void reseed() {
    std::uint8_t seed[core::kChaChaKeyBytes];
    if (!pg_strong_random(seed, sizeof seed))
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
                        errmsg("could not generate random values for idgen")));
    core::rng_seed(backend_rng, seed);
    explicit_bzero(seed, sizeof seed);
    seeded_pid = MyProcPid;
}

}  // namespace

void random_bytes(std::uint8_t *out, std::size_t len) {
    if (unlikely(seeded_pid != MyProcPid || core::rng_wants_seed(backend_rng))) reseed();
    core::rng_fill(backend_rng, out, len);
}

core::Uint128 random_low_bytes128(std::size_t len) {
    std::uint8_t bytes[core::kUint128Bytes] = {};
    random_bytes(bytes + core::kUint128Bytes - len, len);
    core::Uint128 value = core::load_be128(bytes);
    explicit_bzero(bytes, sizeof bytes);
    return value;
}

std::uint64_t random_u64() {
    std::uint8_t bytes[8];
    random_bytes(bytes, sizeof bytes);
    std::uint64_t value = 0;
    for (std::uint8_t b : bytes) value = (value << 8) | b;
    return value;
}

}  // namespace idgen::pg
