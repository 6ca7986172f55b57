// The snowflake lease: a high-water mark in the data directory, fsynced before
// any ID at or beyond it is handed out, and read at every server start and
// crash restart. It holds a millisecond of the IDs' time field (not of the
// clock), so a clock set back, or an epoch moved later, cannot bring a shard
// below an ID issued before the restart.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "pg/state.hpp"

namespace idgen::pg {
namespace {

// Relative to the data directory, every server process's working directory.
constexpr char kLeaseFile[] = "idgen_snowflake.lease";
constexpr char kLeaseHeader[] = "idgen snowflake lease 1\n";
// Header, 20 digits, newline: fixed length, rewritten in place.
constexpr int kRecordLength = sizeof kLeaseHeader - 1 + 21;

std::optional<std::int64_t> parse_record(const char *record, int length) {
    constexpr int kHeaderLength = sizeof kLeaseHeader - 1;
    if (length != kRecordLength || memcmp(record, kLeaseHeader, kHeaderLength) != 0 ||
        record[kRecordLength - 1] != '\n')
        return std::nullopt;
    std::int64_t ms = 0;
    for (int i = kHeaderLength; i < kRecordLength - 1; ++i) {
        if (record[i] < '0' || record[i] > '9') return std::nullopt;
        if (ms > (core::kSnowflakeMaxMs + 1) / 10) return std::nullopt;
        ms = ms * 10 + (record[i] - '0');
    }
    if (ms > core::kSnowflakeMaxMs + 1) return std::nullopt;
    return ms;
}

// The lease on disk: 0 without a file, nullopt when the file holds no lease.
std::optional<std::int64_t> read_lease_file() {
    int fd = OpenTransientFile(kLeaseFile, O_RDONLY | PG_BINARY);
    if (fd < 0) {
        if (errno == ENOENT) return std::int64_t{0};
        ereport(LOG, (errcode_for_file_access(), errmsg("could not open file \"%s\": %m", kLeaseFile)));
        return std::nullopt;
    }
    char record[kRecordLength + 1];
    ssize_t length = read(fd, record, sizeof record);
    CloseTransientFile(fd);
    if (length < 0) return std::nullopt;
    return parse_record(record, static_cast<int>(length));
}

// Writes and fsyncs the lease; reports failures at elevel (ERROR aborts the
// call that needed the lease; the shutdown path only logs).
bool write_lease_file(SharedState *state, std::int64_t lease_ms, int elevel) {
    char record[kRecordLength + 1];
    snprintf(record, sizeof record, "%s%020lld\n", kLeaseHeader, static_cast<long long>(lease_ms));
    int fd = OpenTransientFile(kLeaseFile, O_WRONLY | O_CREAT | PG_BINARY);
    if (fd < 0) {
        ereport(elevel, (errcode_for_file_access(),
                         errmsg("could not open file \"%s\": %m", kLeaseFile),
                         errdetail("snowflake() persists its high-water mark there before "
                                   "handing out IDs beyond it.")));
        return false;
    }
    errno = 0;
    bool written = pwrite(fd, record, kRecordLength, 0) == kRecordLength;
    if (!written && errno == 0) errno = ENOSPC;
    bool synced = written && pg_fsync(fd) == 0;
    int saved_errno = errno;
    CloseTransientFile(fd);
    if (!synced) {
        errno = saved_errno;
        ereport(elevel, (errcode_for_file_access(),
                         errmsg("could not %s file \"%s\": %m", written ? "fsync" : "write",
                                kLeaseFile)));
        return false;
    }
    if (!state->snowflake_lease_file_synced) {
        // A new file: its directory entry must reach the disk too.
        fsync_fname(".", true);
        state->snowflake_lease_file_synced = true;
    }
    return true;
}

// At a clean shutdown (code 0; a crash restart passes 1) every backend has
// exited, so the shards hold exactly what was issued: lower the lease to just
// above it, and the next start continues there instead of up to
// kSnowflakeLeaseSpanMs ahead of the clock.
void lease_at_shutdown(int code, Datum) {
    SharedState *state = shared_state();
    if (code != 0 || state == nullptr || state->snowflake_lease_unreadable) return;
    auto lease_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&state->snowflake_lease_ms));
    if (lease_ms == 0) return;  // no ID was issued since the file was created
    std::int64_t issued_below = 0;
    for (int shard = 0; shard <= core::kSnowflakeMaxShard; ++shard) {
        core::SnowflakeStamp last = pg_atomic_read_u64(&snowflake_shard(shard)->last_stamp);
        std::int64_t below = core::snowflake_stamp_ms(last) + 1;
        if (below > issued_below) issued_below = below;
    }
    if (issued_below < lease_ms) write_lease_file(state, issued_below, LOG);
}

}  // namespace

void snowflake_lease_startup(SharedState *state) {
    std::optional<std::int64_t> lease_ms = read_lease_file();
    state->snowflake_lease_unreadable = !lease_ms.has_value();
    if (!lease_ms)
        ereport(LOG, (errmsg("idgen: file \"%s\" holds no snowflake lease; snowflake() is disabled",
                             kLeaseFile)));
    std::int64_t start = lease_ms.value_or(0);
    state->snowflake_start_lease_ms = start;
    state->snowflake_lease_file_synced = start > 0;
    pg_atomic_init_u64(&state->snowflake_lease_ms, static_cast<std::uint64_t>(start));
    // Registered anew at each (re)creation of the region: the postmaster's
    // exit callbacks run, and are cleared, before a crash restart.
    if (!IsUnderPostmaster) on_shmem_exit(lease_at_shutdown, 0);
}

void snowflake_lease_extend(SharedState *state, std::int64_t ms) {
    auto lease_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&state->snowflake_lease_ms));
    if (ms >= lease_ms) {
        LWLockAcquire(state->snowflake_lease_lock, LW_EXCLUSIVE);
    } else if (!LWLockConditionalAcquire(state->snowflake_lease_lock, LW_EXCLUSIVE)) {
        return;  // another backend renews it; this ID is covered already
    }
    lease_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&state->snowflake_lease_ms));
    if (ms + kSnowflakeLeaseRenewMs >= lease_ms) {
        std::int64_t renewed = ms + kSnowflakeLeaseSpanMs;
        if (renewed > core::kSnowflakeMaxMs + 1) renewed = core::kSnowflakeMaxMs + 1;
        write_lease_file(state, renewed, ERROR);
        pg_atomic_write_u64(&state->snowflake_lease_ms, static_cast<std::uint64_t>(renewed));
    }
    LWLockRelease(state->snowflake_lease_lock);
}

}  // namespace idgen::pg
