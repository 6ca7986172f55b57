// Leases: high-water marks of issued IDs that survive restarts, crashes and
// failover. Each lease is a file in the data directory, fsynced, and a WAL
// record, flushed (and confirmed by synchronous standbys), before any ID at or
// beyond it is handed out. Every start and crash restart reads the file; WAL
// replay (crash recovery, a standby, a base backup being restored) raises it.
// Either way the server resumes above every ID issued before, whatever the
// clock says.
//
// The snowflake lease holds a millisecond of the IDs' time field (not of the
// clock), so an epoch moved later cannot bring a shard back either. The clock
// lease holds a Unix millisecond and covers the 48-bit families: uuid_v7
// (both orders), ulid and prefixed_id_new. The layout lease holds a Unix
// millisecond too, the start of a tick of snowflake_layout_new() in any layout
// but instagram, and is kept as the snowflake lease is: every layout's epoch
// is its own and fixed, so Unix time is the one scale they share.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "core/rmgr_ids.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

struct LeaseFile {
    const char *names[kLeaseSlots];  // per slot, relative to the data directory, every server
                                     // process's working directory
    const char *header;              // first line, names the kind and the format version
    const char *what;                // for messages
    std::int64_t max_end_ms;
};

// A record is the header, 20 digits and a newline: fixed length per file,
// rewritten in place. Releases before 0.8.0 kept one file, slot 0's.
constexpr int kDigits = 20;
constexpr int kMaxRecordLength = 64;
constexpr int kRenewalSlots = kLeaseSlots - 1;  // the last is WAL replay's
constexpr int kReplaySlots = kLeaseSlots;

const LeaseFile kLeaseFiles[kLeaseKinds] = {
    {{"idgen_snowflake.lease", "idgen_snowflake.lease.1", "idgen_snowflake.lease.2",
      "idgen_snowflake.lease.3"},
     "idgen snowflake lease 1\n",
     "snowflake",
     core::kSnowflakeMaxMs + 1},
    {{"idgen_clock.lease", "idgen_clock.lease.1", "idgen_clock.lease.2", "idgen_clock.lease.3"},
     "idgen clock lease 1\n",
     "clock",
     core::kUuidv7MaxUnixMs + 1},
    {{"idgen_snowflake_layout.lease", "idgen_snowflake_layout.lease.1",
      "idgen_snowflake_layout.lease.2", "idgen_snowflake_layout.lease.3"},
     "idgen snowflake layout lease 1\n",
     "snowflake layout",
     core::kLayoutEndOfTimeMs},
};

const LeaseFile &file_of(LeaseKind kind) {
    return kLeaseFiles[static_cast<int>(kind)];
}

}  // namespace

const char *lease_file_name(LeaseKind kind, int slot) {
    return file_of(kind).names[slot];
}

namespace {

int record_length(const LeaseFile &file) {
    return static_cast<int>(strlen(file.header)) + kDigits + 1;
}

std::optional<std::int64_t> parse_record(const LeaseFile &file, const char *record, int length) {
    int header_length = static_cast<int>(strlen(file.header));
    if (length != record_length(file) || memcmp(record, file.header, header_length) != 0 ||
        record[length - 1] != '\n')
        return std::nullopt;
    std::int64_t ms = 0;
    for (int i = header_length; i < length - 1; ++i) {
        if (record[i] < '0' || record[i] > '9') return std::nullopt;
        if (ms > file.max_end_ms / 10) return std::nullopt;
        ms = ms * 10 + (record[i] - '0');
    }
    if (ms > file.max_end_ms) return std::nullopt;
    return ms;
}

// The lease a slot file holds: 0 without a file, nullopt when it holds none.
std::optional<std::int64_t> read_lease_file(const LeaseFile &file, int slot) {
    int fd = OpenTransientFile(file.names[slot], O_RDONLY | PG_BINARY);
    if (fd < 0) {
        if (errno == ENOENT) return std::int64_t{0};
        ereport(LOG, (errcode_for_file_access(),
                      errmsg("could not open file \"%s\": %m", file.names[slot])));
        return std::nullopt;
    }
    char record[kMaxRecordLength];
    ssize_t length = read(fd, record, sizeof record);
    CloseTransientFile(fd);
    if (length < 0) return std::nullopt;
    return parse_record(file, record, static_cast<int>(length));
}

// Writes and fsyncs a lease into a slot that the caller holds, without the
// lease's lock; reports failures at elevel (ERROR aborts the call that needed
// the lease; the shutdown path only logs). new_file: the slot's directory
// entry may not be on disk yet.
bool write_lease_file(const LeaseFile &file, int slot, std::int64_t end_ms, bool new_file,
                      int elevel) {
    const char *name = file.names[slot];
    char record[kMaxRecordLength];
    snprintf(record, sizeof record, "%s%020lld\n", file.header, static_cast<long long>(end_ms));
    int length = record_length(file);
    int fd = OpenTransientFile(name, O_WRONLY | O_CREAT | PG_BINARY);
    if (fd < 0) {
        ereport(elevel, (errcode_for_file_access(),
                         errmsg("could not open file \"%s\": %m", name),
                         errdetail("idgen persists the high-water mark of issued %s IDs there "
                                   "before handing out IDs beyond it.",
                                   file.what)));
        return false;
    }
    errno = 0;
    bool written = pwrite(fd, record, length, 0) == length;
    if (!written && errno == 0) errno = ENOSPC;
    bool synced = written && pg_fsync(fd) == 0;
    int saved_errno = errno;
    CloseTransientFile(fd);
    if (!synced) {
        errno = saved_errno;
        ereport(elevel, (errcode_for_file_access(),
                         errmsg("could not %s file \"%s\": %m", written ? "fsync" : "write",
                                name)));
        return false;
    }
    if (new_file) fsync_fname(".", true);
    return true;
}

constexpr std::uint8_t slot_bit(int slot) {
    return static_cast<std::uint8_t>(1u << slot);
}

// A slot taken for a write.
struct SlotClaim {
    int slot;       // -1: none was free
    bool new_file;  // its directory entry may not be on disk yet
};

// Takes a free slot among the first count for a write (under the lock): one
// that held no lease at start first, so that its rewrite repairs the lease,
// then the lowest.
SlotClaim claim_slot(Lease &lease, int count) {
    int slot = -1;
    for (int s = 0; s < count && slot < 0; ++s)
        if ((lease.bad_slots & ~lease.busy_slots & slot_bit(s)) != 0) slot = s;
    for (int s = 0; s < count && slot < 0; ++s)
        if ((lease.busy_slots & slot_bit(s)) == 0) slot = s;
    if (slot < 0) return {-1, false};
    lease.busy_slots |= slot_bit(slot);
    return {slot, (lease.synced_slots & slot_bit(slot)) == 0};
}

// Whether one of the first count slots is free (under the lock).
bool slot_free(const Lease &lease, int count) {
    std::uint8_t first = static_cast<std::uint8_t>(slot_bit(count) - 1);
    return (lease.busy_slots & first) != first;
}

// Ends a write into slot (under the lock). A written slot raises the end to
// end_ms (it only ever grows) and no longer holds no lease: once no slot
// does, the lease is readable again.
void release_slot(Lease &lease, int slot, bool written, std::int64_t end_ms) {
    lease.busy_slots &= static_cast<std::uint8_t>(~slot_bit(slot));
    if (!written) return;
    lease.synced_slots |= slot_bit(slot);
    lease.bad_slots &= static_cast<std::uint8_t>(~slot_bit(slot));
    if (end_ms > static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms)))
        pg_atomic_write_u64(&lease.end_ms, static_cast<std::uint64_t>(end_ms));
}

// WAL: one record kind per lease, its end in the payload, under the resource
// manager ID of idgen.wal_resource_manager_id. Releases up to 0.5.0 wrote the
// ID PostgreSQL sets aside for development (128), which
// idgen.replay_resource_manager_ids keeps replaying by default.
constexpr int kReleaseRmgrId = 173;
constexpr std::uint8_t kInfoShift = 4;  // the low four info bits belong to PostgreSQL

int wal_rmgr_id = kReleaseRmgrId;
char *replay_rmgr_ids_text = nullptr;

static_assert(core::kRmgrMinCustomId == RM_MIN_CUSTOM_ID &&
                  core::kRmgrMaxCustomId == RM_MAX_CUSTOM_ID &&
                  core::kRmgrCustomIdCount == RM_N_CUSTOM_IDS,
              "core/rmgr_ids.hpp holds PostgreSQL's custom resource manager IDs");

// Names of the replay-only registrations: PostgreSQL wants one name per ID.
char replay_rmgr_names[RM_N_CUSTOM_IDS][NAMEDATALEN];

std::uint8_t info_of(LeaseKind kind) {
    return static_cast<std::uint8_t>(static_cast<int>(kind) << kInfoShift);
}

std::optional<LeaseKind> kind_of_info(std::uint8_t info) {
    int kind = (info & XLR_RMGR_INFO_MASK) >> kInfoShift;
    if (kind >= kLeaseKinds) return std::nullopt;
    return static_cast<LeaseKind>(kind);
}

// Whether the synchronous standbys flushed WAL up to lsn (true when none is
// defined).
bool sync_standby_confirmed(XLogRecPtr lsn) {
    if (max_wal_senders == 0) return true;
    LWLockAcquire(SyncRepLock, LW_SHARED);
#ifdef SYNC_STANDBY_DEFINED
    bool defined = (WalSndCtl->sync_standbys_status & SYNC_STANDBY_DEFINED) != 0;
#else
    bool defined = WalSndCtl->sync_standbys_defined;
#endif
    bool confirmed = !defined || WalSndCtl->lsn[SYNC_REP_WAIT_FLUSH] >= lsn;
    LWLockRelease(SyncRepLock);
    return confirmed;
}

// Waits for the synchronous standbys to flush WAL up to lsn as
// synchronous_commit = on makes a commit wait, whatever the renewing session
// set: one renewal serves every session of the server, and a session that
// set local or off must not leave everyone's IDs unconfirmed. The setting is
// changed for the wait alone, as a function's SET clause does (allowed in
// parallel mode too), and restored on return or by the abort of an error.
void wait_for_sync_standbys(XLogRecPtr lsn) {
    int nest_level = NewGUCNestLevel();
    (void)set_config_option("synchronous_commit", "on", PGC_USERSET, PGC_S_SESSION,
                            GUC_ACTION_SAVE, true, ERROR, false);
    SyncRepWaitForLSN(lsn, false);
    AtEOXact_GUC(true, nest_level);
}

// Makes the renewed end durable in WAL, and on synchronous standbys, so that
// a promoted standby resumes above it.
void log_lease(LeaseKind kind, std::int64_t end_ms) {
    XLogBeginInsert();
    XLogRegisterData(reinterpret_cast<char *>(&end_ms), sizeof end_ms);
    XLogRecPtr lsn = XLogInsert(static_cast<RmgrId>(wal_rmgr_id), info_of(kind));
    XLogFlush(lsn);
    wait_for_sync_standbys(lsn);
    // A cancelled wait returns with only a warning. A snowflake beyond a
    // renewal the synchronous standby never got could be issued again by that
    // standby once promoted, so the call fails instead and the next one waits
    // again; the clock lease only orders IDs, so its callers go on.
    if (kind != LeaseKind::clock && !sync_standby_confirmed(lsn))
        ereport(ERROR,
                (errcode(ERRCODE_QUERY_CANCELED),
                 errmsg("snowflake lease renewal was not confirmed by a synchronous standby"),
                 errdetail("The wait for synchronous replication was cancelled; a standby "
                           "promoted now could issue the IDs beyond the renewal again."),
                 errhint("snowflake() waits for the standbys in synchronous_standby_names as a "
                         "commit with synchronous_commit = on does; it resumes once they "
                         "confirm.")));
}

// Raises a lease's end and floor to end_ms, and what depends on the floor.
void raise_floor(SharedState *state, LeaseKind kind, std::int64_t end_ms) {
    Lease &lease = state->leases[static_cast<int>(kind)];
    auto floor = pg_atomic_read_u64(&lease.floor_ms);
    while (floor < static_cast<std::uint64_t>(end_ms) &&
           !pg_atomic_compare_exchange_u64(&lease.floor_ms, &floor, end_ms)) {
    }
    // Shards resume just below the floor, as at a server start.
    if (kind == LeaseKind::snowflake) snowflake_shards_raise(end_ms);
}

// Replays a lease record: on a standby, in crash recovery and when a base
// backup is restored. A slot file is rewritten, without the lock (a hot
// standby's sessions renew the clock lease meanwhile), so that a restart
// keeps it. A file that cannot be written (read-only, immutable, a full disk)
// must not stop recovery, and with it every database of the server: the end
// stays what the files hold and only the floor rises, so that the next ID
// needs a renewal, which writes a file or refuses to mint until it can.
void lease_redo(XLogReaderState *record) {
    std::optional<LeaseKind> kind = kind_of_info(XLogRecGetInfo(record));
    if (!kind || XLogRecGetDataLen(record) != sizeof(std::int64_t))
        elog(PANIC, "idgen: unknown lease record (info %u, %u bytes)", XLogRecGetInfo(record),
             XLogRecGetDataLen(record));
    std::int64_t end_ms;
    memcpy(&end_ms, XLogRecGetData(record), sizeof end_ms);
    SharedState *state = shared_state();
    Lease &lease = state->leases[static_cast<int>(*kind)];
    const LeaseFile &file = file_of(*kind);
    LWLockAcquire(lease.lock, LW_EXCLUSIVE);
    // The last slot is replay's alone: one is always free.
    SlotClaim claim = end_ms > static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms))
                          ? claim_slot(lease, kReplaySlots)
                          : SlotClaim{-1, false};
    int slot = claim.slot;
    LWLockRelease(lease.lock);
    bool written = slot >= 0 && write_lease_file(file, slot, end_ms, claim.new_file, WARNING);
    if (slot >= 0 && !written)
        ereport(WARNING,
                (errmsg("idgen could not record the %s lease replayed from WAL", file.what),
                 errdetail("Recovery goes on; IDs of the lease's families are refused until "
                           "the file \"%s\" can be written.",
                           file.names[slot]),
                 errhint("Make the file writable by the server's user; on a standby, do so "
                         "before it is restarted or promoted.")));
    LWLockAcquire(lease.lock, LW_EXCLUSIVE);
    if (slot >= 0) release_slot(lease, slot, written, end_ms);
    raise_floor(state, *kind, end_ms);
    LWLockRelease(lease.lock);
}

void lease_desc(StringInfo buf, XLogReaderState *record) {
    std::int64_t end_ms = 0;
    if (XLogRecGetDataLen(record) == sizeof end_ms)
        memcpy(&end_ms, XLogRecGetData(record), sizeof end_ms);
    appendStringInfo(buf, "end %lld ms", static_cast<long long>(end_ms));
}

const char *lease_identify(std::uint8_t info) {
    std::optional<LeaseKind> kind = kind_of_info(info);
    if (!kind) return nullptr;
    switch (*kind) {
        case LeaseKind::snowflake: return "SNOWFLAKE_LEASE";
        case LeaseKind::clock: return "CLOCK_LEASE";
        case LeaseKind::layout: return "SNOWFLAKE_LAYOUT_LEASE";
    }
    return nullptr;
}

RmgrData idgen_rmgr = {
    "idgen", lease_redo, lease_desc, lease_identify, nullptr, nullptr, nullptr, nullptr,
};

// The Unix millisecond below which every exited backend's clock-family IDs lie
// (release_slot folds each backend's last IDs in).
std::int64_t clock_issued_below(SharedState *state) {
    return static_cast<std::int64_t>(pg_atomic_read_u64(&state->clock_issued_below_ms));
}

// Removes the slot files beyond the first, once the first holds the lease.
void remove_other_slots(const LeaseFile &file) {
    bool removed = false;
    for (int slot = 1; slot < kLeaseSlots; ++slot) {
        if (unlink(file.names[slot]) == 0)
            removed = true;
        else if (errno != ENOENT)
            ereport(LOG, (errcode_for_file_access(),
                          errmsg("could not remove file \"%s\": %m", file.names[slot])));
    }
    if (removed) fsync_fname(".", true);
}

// At a clean shutdown (code 0; a crash restart passes 1) every backend has
// exited, so the floor, the shards and the exited backends' sequences hold
// exactly what was issued: lower each lease to just above it, in the first
// slot alone, and the next start continues there instead of up to
// kLeaseSpanMs ahead of the clock. A standby's leases come from its primary
// and stay as replayed.
void leases_at_shutdown(int code, Datum) {
    SharedState *state = shared_state();
    if (code != 0 || state == nullptr || RecoveryInProgress()) return;
    for (int k = 0; k < kLeaseKinds; ++k) {
        auto kind = static_cast<LeaseKind>(k);
        Lease &lease = state->leases[k];
        auto end_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms));
        // An unreadable lease stays as found; 0: nothing issued since the file was created.
        if (lease_unreadable(state, kind) || end_ms == 0) continue;
        std::int64_t issued_below = kind == LeaseKind::snowflake ? snowflake_shards_issued_below()
                                    : kind == LeaseKind::layout  ? snowflake_layout_slots_issued_below()
                                                                 : clock_issued_below(state);
        // IDs issued before this server started lie below the floor, whether or
        // not any was issued since.
        issued_below = std::max(issued_below,
                                static_cast<std::int64_t>(pg_atomic_read_u64(&lease.floor_ms)));
        if (issued_below < end_ms &&
            write_lease_file(file_of(kind), 0, issued_below, (lease.synced_slots & 1) == 0, LOG))
            remove_other_slots(file_of(kind));
    }
}

// The wait of a session for a renewal that another session is writing: its
// own event from PostgreSQL 17 on, the generic Extension before.
std::uint32_t renewal_wait_event() {
#if PG_VERSION_NUM >= 170000
    static std::uint32_t event = 0;
    if (event == 0) event = WaitEventExtensionNew("IdgenLeaseRenewal");
    return event;
#else
    return PG_WAIT_EXTENSION;
#endif
}

// A renewal: its number and the slot it writes.
struct Renewal {
    std::uint32_t number;
    SlotClaim file;
};

// The kind, slot and number of a renewal, as the cleanup's argument.
Datum renewal_arg(LeaseKind kind, const Renewal &renewal) {
    return UInt64GetDatum((std::uint64_t{renewal.number} << 16) |
                          (static_cast<std::uint64_t>(renewal.file.slot) << 8) |
                          static_cast<std::uint64_t>(kind));
}

// Ends a renewal (under the lock): its slot is free again, and the lease is
// no longer being renewed, unless another session took the renewal over.
void end_renewal(Lease &lease, std::uint32_t number, int slot, bool written,
                 std::int64_t end_ms) {
    release_slot(lease, slot, written, end_ms);
    if (lease.renewal == number) lease.renewing = false;
}

// Ends this session's renewal of a lease without publishing it (an error, a
// cancelled wait for the standbys, the session ending), so that the sessions
// waiting for it try again: one of them renews in turn.
void renewal_abandoned(int, Datum arg) {
    std::uint64_t packed = DatumGetUInt64(arg);
    Lease &lease = shared_state()->leases[packed & 0xff];
    if (!LWLockHeldByMe(lease.lock)) LWLockAcquire(lease.lock, LW_EXCLUSIVE);
    end_renewal(lease, static_cast<std::uint32_t>(packed >> 16),
                static_cast<int>((packed >> 8) & 0xff), false, 0);
    LWLockRelease(lease.lock);
    ConditionVariableBroadcast(&lease.renewed);
}

// Moves a lease's end to target, as the session that renews it (renewal, made
// the lease's current one by the caller, with a slot of its own). The WAL
// record is written and waited for (flush and synchronous standbys), and the
// slot's file written and fsynced, all without the lock, so that other
// sessions keep minting below the end, and those that need the renewal wait
// on the condition variable, where a cancel or terminate reaches them. The
// end is then published under the lock. A snowflake renewal the standbys did
// not confirm fails in log_lease and publishes nothing.
void write_renewal(SharedState *state, LeaseKind kind, const Renewal &renewal,
                   std::int64_t target) {
    Lease &lease = state->leases[static_cast<int>(kind)];
    Datum arg = renewal_arg(kind, renewal);
    // WAL replay may have raised the lease meanwhile (a hot standby).
    const bool raises = target > static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms));
    PG_ENSURE_ERROR_CLEANUP(renewal_abandoned, arg);
    {
        // A hot standby writes no WAL; its own clock IDs renew the file only.
        if (!RecoveryInProgress()) log_lease(kind, target);
        // A failed write raises the error.
        if (raises)
            (void)write_lease_file(file_of(kind), renewal.file.slot, target,
                                   renewal.file.new_file, ERROR);
    }
    PG_END_ENSURE_ERROR_CLEANUP(renewal_abandoned, arg);
    LWLockAcquire(lease.lock, LW_EXCLUSIVE);
    end_renewal(lease, renewal.number, renewal.file.slot, raises, target);
    LWLockRelease(lease.lock);
    ConditionVariableBroadcast(&lease.renewed);
}

// Whether the latest renewal of a lease started more than kRenewalHandOverMs
// before now_ns (under the lock).
bool renewal_overdue(const Lease &lease, std::int64_t now_ns) {
    return now_ns - lease.renewal_started_ns > kRenewalHandOverMs * kNsPerMs;
}

// Whether a session that needs the lease to end beyond need may start a
// renewal (under the lock): nobody renews it, or the renewal is overdue, and
// a slot is free for the write.
bool may_renew(const Lease &lease, std::int64_t end_ms, std::int64_t need, std::int64_t now_ns) {
    return slot_free(lease, kRenewalSlots) &&
           (!lease.renewing || (end_ms <= need && renewal_overdue(lease, now_ns)));
}

// Waits, interruptibly, until a lease ends beyond need or this session may
// renew it.
void wait_for_renewal(Lease &lease, std::int64_t need) {
    std::uint32_t wait_event = renewal_wait_event();
    ConditionVariablePrepareToSleep(&lease.renewed);
    for (;;) {
        std::int64_t now_ns = clock_monotonic_ns();  // may fail: not under the lock
        LWLockAcquire(lease.lock, LW_SHARED);
        auto end_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms));
        bool done = end_ms > need || may_renew(lease, end_ms, need, now_ns);
        LWLockRelease(lease.lock);
        if (done) break;
        // CHECK_FOR_INTERRUPTS; wakes up to look at the time too.
        (void)ConditionVariableTimedSleep(&lease.renewed, kRenewalHandOverMs / 4, wait_event);
    }
    ConditionVariableCancelSleep();
}

// Makes a lease end beyond need, waiting if it does not; renews it to target
// ahead of time when it ends at or before want, unless another session
// already does. One session at a time renews a lease; a renewal overdue by
// kRenewalHandOverMs is taken over by a session that needs it, in another
// slot (the stalled one may still finish: the end only ever grows, whichever
// does first).
void renew(SharedState *state, LeaseKind kind, std::int64_t need, std::int64_t want,
           std::int64_t target) {
    Lease &lease = state->leases[static_cast<int>(kind)];
    for (;;) {
        std::int64_t now_ns = clock_monotonic_ns();  // may fail: not under the lock
        if (static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms)) <= need)
            LWLockAcquire(lease.lock, LW_EXCLUSIVE);
        else if (!LWLockConditionalAcquire(lease.lock, LW_EXCLUSIVE))
            return;  // another backend renews it or looks; this ID is covered already
        auto end_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&lease.end_ms));
        if (end_ms > want) {
            LWLockRelease(lease.lock);
            return;
        }
        if (may_renew(lease, end_ms, need, now_ns)) {
            lease.renewing = true;
            // may_renew: a slot is free
            Renewal renewal{++lease.renewal, claim_slot(lease, kRenewalSlots)};
            lease.renewal_started_ns = now_ns;
            LWLockRelease(lease.lock);
            write_renewal(state, kind, renewal, target);
            return;
        }
        LWLockRelease(lease.lock);
        if (end_ms > need) return;  // renewed ahead of time by another session
        wait_for_renewal(lease, need);
    }
}

// The GUC error detail (without its period) for a malformed
// idgen.replay_resource_manager_ids; nullptr when the list parsed.
const char *rmgr_id_list_error(core::RmgrIdListError error) {
    switch (error) {
        case core::RmgrIdListError::none: return nullptr;
        case core::RmgrIdListError::expected_id:
            return "expected a resource manager ID from 128 to 255";
        case core::RmgrIdListError::out_of_range:
            return "resource manager IDs for extensions run from 128 to 255";
        case core::RmgrIdListError::duplicate: return "an ID is listed twice";
        case core::RmgrIdListError::expected_comma: return "IDs are separated by commas";
    }
    return "invalid list of resource manager IDs";
}

bool check_replay_rmgr_ids(char **newval, void **, GucSource) {
    core::RmgrIdSet ids;
    const char *error = rmgr_id_list_error(core::rmgr_parse_id_list(*newval, ids).error);
    if (error == nullptr) return true;
    GUC_check_errdetail("%s.", error);
    return false;
}

// Registers rmgr under id, or stops the server start with a message that
// names the module holding the ID and what to change in idgen's settings.
void register_rmgr(int id, RmgrData rmgr, bool replay_only) {
    if (RmgrIdExists(static_cast<RmgrId>(id))) {
        if (replay_only)
            ereport(ERROR,
                    (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                     errmsg("idgen cannot replay WAL resource manager ID %d: resource manager "
                            "\"%s\" of another module in shared_preload_libraries holds it",
                            id, RmgrTable[id].rm_name),
                     errhint("Remove %d from idgen.replay_resource_manager_ids once no WAL that "
                             "idgen wrote under it remains to be replayed (idgen 0.5.0 and "
                             "earlier wrote 128).",
                             id)));
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                 errmsg("idgen cannot use WAL resource manager ID %d: resource manager \"%s\" "
                        "of another module in shared_preload_libraries holds it",
                        id, RmgrTable[id].rm_name),
                 errhint("Set idgen.wal_resource_manager_id to a free ID from 129 to 255 here and "
                         "on every server that replays this one's WAL, and list %d in "
                         "idgen.replay_resource_manager_ids while WAL written under it remains "
                         "to be replayed.",
                         id)));
    }
    RegisterCustomRmgr(static_cast<RmgrId>(id), &rmgr);
}

}  // namespace

void lease_register_wal() {
    DefineCustomIntVariable(
        "idgen.wal_resource_manager_id",
        "WAL resource manager ID under which idgen writes its lease records.",
        "Every server that replays this server's WAL (standbys, restored backups) needs the "
        "same ID here or in idgen.replay_resource_manager_ids. Change it only when another "
        "module uses the ID.",
        &wal_rmgr_id, kReleaseRmgrId, RM_MIN_CUSTOM_ID, RM_MAX_CUSTOM_ID, PGC_POSTMASTER, 0,
        nullptr, nullptr, nullptr);
    DefineCustomStringVariable(
        "idgen.replay_resource_manager_ids",
        "Older resource manager IDs whose idgen lease records are replayed, never written.",
        "A comma-separated list; '128' by default, the ID of idgen 0.5.0 and earlier. Remove an "
        "ID once no WAL, standby or base backup written under it needs replaying.",
        &replay_rmgr_ids_text, "128", PGC_POSTMASTER, 0, check_replay_rmgr_ids, nullptr,
        nullptr);

    register_rmgr(wal_rmgr_id, idgen_rmgr, false);
    core::RmgrIdSet replay;
    core::rmgr_parse_id_list(replay_rmgr_ids_text, replay);  // checked by check_replay_rmgr_ids
    for (int i = 0; i < RM_N_CUSTOM_IDS; ++i) {
        int id = RM_MIN_CUSTOM_ID + i;
        if (!replay[i] || id == wal_rmgr_id) continue;
        RmgrData replay_rmgr = idgen_rmgr;
        snprintf(replay_rmgr_names[i], NAMEDATALEN, "idgen_replay_%d", id);
        replay_rmgr.rm_name = replay_rmgr_names[i];
        register_rmgr(id, replay_rmgr, true);
    }
}

void leases_startup(SharedState *state, LWLockPadded *locks) {
    for (int k = 0; k < kLeaseKinds; ++k) {
        Lease &lease = state->leases[k];
        const LeaseFile &file = kLeaseFiles[k];
        std::int64_t start = 0;
        lease.bad_slots = 0;
        // Each slot's first write of a server's life fsyncs the directory:
        // a file seen here may have been created just before a crash.
        lease.synced_slots = 0;
        for (int slot = 0; slot < kLeaseSlots; ++slot) {
            std::optional<std::int64_t> end_ms = read_lease_file(file, slot);
            if (end_ms) {
                start = std::max(start, *end_ms);
                continue;
            }
            lease.bad_slots |= slot_bit(slot);
            // Without its lease snowflake() could repeat an ID, so it
            // refuses; the clock families only order, so they go on from
            // the other slots or the clock.
            ereport(LOG, (errmsg("idgen: file \"%s\" holds no %s lease", file.names[slot],
                                 file.what),
                          errdetail(k == static_cast<int>(LeaseKind::snowflake)
                                        ? "snowflake() is disabled."
                                    : k == static_cast<int>(LeaseKind::layout)
                                        ? "snowflake_layout_new() is disabled in every layout but "
                                          "instagram."
                                        : "uuid_v7, ulid and prefixed IDs start again from the "
                                          "clock, and the next renewal rewrites the file.")));
        }
        lease.busy_slots = 0;
        lease.lock = &locks[k].lock;
        lease.renewing = false;
        lease.renewal = 0;
        lease.renewal_started_ns = 0;
        ConditionVariableInit(&lease.renewed);
        pg_atomic_init_u64(&lease.end_ms, static_cast<std::uint64_t>(start));
        pg_atomic_init_u64(&lease.floor_ms, static_cast<std::uint64_t>(start));
    }
    pg_atomic_init_u64(&state->clock_issued_below_ms, 0);
    state->raised_database_count = 0;
    for (pg_atomic_uint64 &slot : state->verified_origins) pg_atomic_init_u64(&slot, 0);
    // An epoch moved later after IDs were issued puts them ahead of the clock
    // by more than any idgen.max_clock_regression: snowflake() will refuse
    // until the clock catches up. Say so once, at start.
    auto snowflake_end =
        static_cast<std::int64_t>(pg_atomic_read_u64(&state->leases[static_cast<int>(LeaseKind::snowflake)].end_ms));
    std::int64_t snowflake_now_ms = clock_unix_ns() / kNsPerMs - snowflake_epoch_unix_ms;
    if (snowflake_end - snowflake_now_ms > kMaxClockRegressionCapMs)
        ereport(WARNING,
                (errmsg("idgen: snowflake IDs were issued up to %lld ms ahead of the clock "
                        "counted from idgen.snowflake_epoch",
                        static_cast<long long>(snowflake_end - snowflake_now_ms)),
                 errdetail("snowflake() and snowflake53() will refuse to mint until the clock "
                           "catches up: idgen.snowflake_epoch was moved later after IDs were "
                           "issued (new IDs would repeat them), or the clock was set back."),
                 errhint("Set idgen.snowflake_epoch back to the value the issued IDs count from "
                         "(an earlier epoch is safe too) and restart.")));
    // Registered anew at each (re)creation of the region: the postmaster's
    // exit callbacks run, and are cleared, before a crash restart.
    if (!IsUnderPostmaster) on_shmem_exit(leases_at_shutdown, 0);
}

void lease_extend(SharedState *state, LeaseKind kind, std::int64_t ms) {
    std::int64_t renewed = std::min(ms + kLeaseSpanMs, file_of(kind).max_end_ms);
    renew(state, kind, ms, ms + kLeaseRenewMs, renewed);
}

void lease_raise(SharedState *state, LeaseKind kind, std::int64_t end_ms) {
    Lease &lease = state->leases[static_cast<int>(kind)];
    end_ms = std::min(end_ms, file_of(kind).max_end_ms);
    renew(state, kind, end_ms - 1, end_ms - 1, end_ms);
    LWLockAcquire(lease.lock, LW_EXCLUSIVE);
    raise_floor(state, kind, end_ms);
    LWLockRelease(lease.lock);
}

bool lease_database_raised(SharedState *state, Oid database) {
    Lease &lease = state->leases[static_cast<int>(LeaseKind::clock)];
    LWLockAcquire(lease.lock, LW_SHARED);
    bool found = false;
    for (int i = 0; i < state->raised_database_count && !found; ++i)
        found = state->raised_databases[i] == database;
    LWLockRelease(lease.lock);
    return found;
}

void lease_note_database_raised(SharedState *state, Oid database) {
    Lease &lease = state->leases[static_cast<int>(LeaseKind::clock)];
    LWLockAcquire(lease.lock, LW_EXCLUSIVE);
    if (state->raised_database_count < kRaisedDatabaseSlots)
        state->raised_databases[state->raised_database_count++] = database;
    LWLockRelease(lease.lock);
}

namespace {
std::uint64_t origin_key(Oid database, Oid relid) {
    return (static_cast<std::uint64_t>(database) << 32) | relid;
}
}  // namespace

bool lease_origin_verified(SharedState *state, Oid database, Oid relid) {
    std::uint64_t key = origin_key(database, relid);
    for (pg_atomic_uint64 &slot : state->verified_origins) {
        std::uint64_t seen = pg_atomic_read_u64(&slot);
        if (seen == key) return true;
        if (seen == 0) return false;  // slots fill in order
    }
    return false;
}

void lease_note_origin_verified(SharedState *state, Oid database, Oid relid) {
    std::uint64_t key = origin_key(database, relid);
    for (pg_atomic_uint64 &slot : state->verified_origins) {
        std::uint64_t seen = 0;
        if (pg_atomic_compare_exchange_u64(&slot, &seen, key) || seen == key) return;
    }
    // Full: later sessions of this database read the table, as without the note.
}

void lease_note_clock_issued(SharedState *state, std::int64_t below_ms) {
    auto seen = pg_atomic_read_u64(&state->clock_issued_below_ms);
    while (seen < static_cast<std::uint64_t>(below_ms) &&
           !pg_atomic_compare_exchange_u64(&state->clock_issued_below_ms, &seen, below_ms)) {
    }
}

}  // namespace idgen::pg
