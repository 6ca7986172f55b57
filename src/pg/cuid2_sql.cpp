// CUID2 (core/cuid2.hpp): cuid2(length), cuid2_is_valid(id) and
// cuid2_is_valid(id, length). The counter and the fingerprint are per
// backend: the reference keeps one of each per process (init() runs once),
// and a backend is a process. Nothing is shared, so no lock, no shared memory
// and no WAL; the random salt in every hash does the work of uniqueness, the
// counter and fingerprint only separate IDs of one millisecond and process
// as the reference's do.
#include "core/cuid2.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

// This backend's counter and fingerprint, made at its first cuid2() (pid
// re-checked: a state made before a fork belongs to the parent).
struct Cuid2State {
    int pid;
    std::uint64_t counter;
    char fingerprint[core::kCuid2FingerprintLength];
    std::size_t fingerprint_length;
};

Cuid2State state = {0, 0, {}, 0};

// Random bytes for the draws of one call, fetched as the draws need them:
// a draw of n characters takes n bytes and a few more for the bytes it
// skips (1 in 64 for a digit, 1 in 11 for a letter), so one fetch almost
// always does.
struct RandomPool {
    std::uint8_t bytes[64];
    std::size_t used;
    std::size_t filled;
};

constexpr std::size_t kSpareBytes = 4;

// Draws count characters (letters: a-z, else base36 digits) into out; a
// fetch also covers the next draw's count_after characters.
void draw(RandomPool &pool, bool letters, char *out, std::size_t count, std::size_t count_after = 0) {
    std::size_t written = 0;
    while (written < count) {
        if (pool.used == pool.filled) {
            std::size_t want = count - written + count_after + kSpareBytes;
            pool.filled = want < sizeof pool.bytes ? want : sizeof pool.bytes;
            random_bytes(pool.bytes, pool.filled);
            pool.used = 0;
        }
        pool.used += core::cuid2_draw(pool.bytes + pool.used, pool.filled - pool.used, letters, out, count,
                                      &written);
    }
}

// createFingerprint and createCounter, once per backend. The reference's
// source is the names of the JavaScript globals and 32 random base36 digits;
// here the server's system identifier, the pid and the backend's start time
// stand for the host, then the same 32 digits.
Cuid2State &backend_state() {
    if (likely(state.pid == MyProcPid)) return state;
    char source[128 + core::kCuid2FingerprintEntropy];
    int host = snprintf(source, 128, "%llu,%d,%lld", static_cast<unsigned long long>(GetSystemIdentifier()),
                        MyProcPid, static_cast<long long>(MyStartTime));
    if (host < 0 || host >= 128) host = 0;  // cannot happen (at most 53 characters); the digits still count
    RandomPool pool{{}, 0, 0};
    draw(pool, false, source + host, core::kCuid2FingerprintEntropy);
    explicit_bzero(pool.bytes, pool.filled);
    state.fingerprint_length =
        core::cuid2_fingerprint(std::string_view(source, host + core::kCuid2FingerprintEntropy), state.fingerprint);
    explicit_bzero(source, sizeof source);
    // floor(random() * initialCountMax), random() a 32-bit fraction.
    std::uint32_t fraction = static_cast<std::uint32_t>(random_u64());
    state.counter = (std::uint64_t{fraction} * core::kCuid2InitialCountMax) >> 32;
    state.pid = MyProcPid;
    return state;
}

std::size_t length_argument(std::int32_t length) {
    if (length < static_cast<std::int32_t>(core::kCuid2MinLength) ||
        length > static_cast<std::int32_t>(core::kCuid2MaxLength))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("invalid length for cuid2: %d", length),
                        errdetail("A CUID2 has %zu to %zu characters.", core::kCuid2MinLength,
                                  core::kCuid2MaxLength)));
    return static_cast<std::size_t>(length);
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_cuid2);
PG_FUNCTION_INFO_V1(idgen_cuid2_is_valid);
PG_FUNCTION_INFO_V1(idgen_cuid2_is_valid_length);

// cuid2(length): a letter, then length - 1 characters of the hash's base36.
Datum idgen_cuid2(PG_FUNCTION_ARGS) {
    std::size_t length = length_argument(PG_GETARG_INT32(0));
    Cuid2State &session = backend_state();
    char letter_and_salt[1 + idgen::core::kCuid2MaxLength];
    RandomPool pool{{}, 0, 0};
    draw(pool, true, letter_and_salt, 1, length);
    draw(pool, false, letter_and_salt + 1, length);
    idgen::core::Cuid2Parts parts{clock_unix_ns() / 1000000, session.counter++,
                                  std::string_view(letter_and_salt + 1, length),
                                  std::string_view(session.fingerprint, session.fingerprint_length),
                                  letter_and_salt[0]};
    text *result = static_cast<text *>(palloc(VARHDRSZ + idgen::core::kCuid2MaxLength));
    std::size_t written = idgen::core::cuid2_make(parts, length, VARDATA(result));
    explicit_bzero(letter_and_salt, sizeof letter_and_salt);
    explicit_bzero(pool.bytes, pool.filled);
    SET_VARSIZE(result, VARHDRSZ + written);
    PG_RETURN_TEXT_P(result);
}

// cuid2_is_valid(id): isCuid's rule, 2 to 32 characters.
Datum idgen_cuid2_is_valid(PG_FUNCTION_ARGS) {
    text *id = PG_GETARG_TEXT_PP(0);
    PG_RETURN_BOOL(idgen::core::cuid2_valid(std::string_view(VARDATA_ANY(id), VARSIZE_ANY_EXHDR(id))));
}

// cuid2_is_valid(id, length): the same, of exactly length characters
// (isCuid with minLength = maxLength = length); the length as cuid2() takes it.
Datum idgen_cuid2_is_valid_length(PG_FUNCTION_ARGS) {
    text *id = PG_GETARG_TEXT_PP(0);
    std::size_t length = length_argument(PG_GETARG_INT32(1));
    PG_RETURN_BOOL(
        idgen::core::cuid2_valid(std::string_view(VARDATA_ANY(id), VARSIZE_ANY_EXHDR(id)), length, length));
}

}  // extern "C"
