// The lease origin: the high-water mark of issued IDs across pg_upgrade and
// dump/restore. Both carry a database's tables and neither the lease files
// nor the WAL, so the new cluster would start its shards from its own clock,
// up to idgen.max_clock_regression below IDs the old cluster issued before it
// stopped. The extension's table idgen_lease_origin names the cluster whose
// leases cover the database's IDs (0: not known). At the first ID minted in a
// database whose table names any other, this cluster raises both leases,
// durably as a renewal is, to its clock plus the bound (every ID the old
// cluster issued lay below its shutdown plus the bound, and this clock reads
// later than that shutdown), then names itself alone. A database whose
// extension predates the table (0.6.0 and earlier) cannot say: its first ID
// after each server start raises the leases the same way.
//
// Only a session that may move IDs ahead anyway raises: a superuser, or one
// with a shard to mint snowflakes on. The leases are the whole server's, and
// a database owner without either (a tenant, who can install the trusted
// extension, drop it, relabel it by a restore-like install or mint only in
// read-only transactions) must not move every other database's IDs ahead of
// the clock. Such a session mints below the raise and leaves the label for a
// session that may; its families carry random bits, so only their order
// against the old cluster's last IDs waits for that raise.
#include "pg/state.hpp"

namespace idgen::pg {

Oid lease_origin_checked_db = InvalidOid;

// The schema idgen was created in, or InvalidOid (state.hpp).
Oid extension_schema(Oid extension) {
#if PG_VERSION_NUM >= 160000
    return get_extension_schema(extension);
#else
    Relation rel = table_open(ExtensionRelationId, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ,
                ObjectIdGetDatum(extension));
    SysScanDesc scan = systable_beginscan(rel, ExtensionOidIndexId, true, nullptr, 1, &key);
    HeapTuple tuple = systable_getnext(scan);
    Oid schema = HeapTupleIsValid(tuple)
                     ? reinterpret_cast<Form_pg_extension>(GETSTRUCT(tuple))->extnamespace
                     : InvalidOid;
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    return schema;
#endif
}

namespace {

constexpr const char *kOriginTable = "idgen_lease_origin";


// The origin table of this database's idgen, or InvalidOid when its version
// predates it (or idgen is not an extension here).
Oid origin_table() {
    Oid extension = get_extension_oid("idgen", true);
    if (!OidIsValid(extension)) return InvalidOid;
    Oid schema = extension_schema(extension);
    if (!OidIsValid(schema)) return InvalidOid;
    return get_relname_relid(kOriginTable, schema);
}

// Whether the table names this cluster and no other. With remove, deletes
// every row that names another (or 0), and reports whether one named this.
bool scan_origin(Relation rel, std::uint64_t self, bool remove, bool *self_listed) {
    bool only_self = true;
    *self_listed = false;
    // A parallel operation cannot take a new snapshot: it reads with the
    // query's (and never writes).
    Snapshot snapshot =
        RegisterSnapshot(IsInParallelMode() ? GetActiveSnapshot() : GetLatestSnapshot());
#if PG_VERSION_NUM >= 190000
    // 19 adds the caller's scan options (none here).
    TableScanDesc scan = table_beginscan(rel, snapshot, 0, nullptr, 0);
#else
    TableScanDesc scan = table_beginscan(rel, snapshot, 0, nullptr);
#endif
    HeapTuple tuple;
    while ((tuple = heap_getnext(scan, ForwardScanDirection)) != nullptr) {
        bool isnull = false;
        Datum value = heap_getattr(tuple, 1, RelationGetDescr(rel), &isnull);
        bool is_self = !isnull && static_cast<std::uint64_t>(DatumGetInt64(value)) == self;
        if (is_self) {
            *self_listed = true;
            continue;
        }
        only_self = false;
        if (remove) {
            TM_FailureData failure;
            // Another session's change to the same row (it holds no lock
            // that we wait for: adopters serialise on the table) is left as is.
#if PG_VERSION_NUM >= 190000
            // 19 folds changingPart into an options mask (no option here).
            (void)heap_delete(rel, &tuple->t_self, GetCurrentCommandId(true), 0,
                              InvalidSnapshot, true, &failure);
#else
            (void)heap_delete(rel, &tuple->t_self, GetCurrentCommandId(true), InvalidSnapshot,
                              true, &failure, false);
#endif
        }
    }
    table_endscan(scan);
    UnregisterSnapshot(snapshot);
    return only_self && *self_listed;
}

// The bound old IDs may have run ahead of the old cluster's clock: this
// session's idgen.max_clock_regression or the server's, whichever is larger.
std::int64_t lead_bound_ms() {
    const char *reset = GetConfigOptionResetString("idgen.max_clock_regression");
    std::int64_t server = reset != nullptr ? strtol(reset, nullptr, 10) : 0;
    return std::max<std::int64_t>(max_clock_regression_ms, server);
}

// Raises the leases above every ID another cluster may have issued before
// this one started: the clock plus the bound.
void raise_leases(SharedState *state) {
    std::int64_t unix_ms = clock_unix_ns() / kNsPerMs + lead_bound_ms();
    lease_raise(state, LeaseKind::clock, unix_ms);
    if (!snowflake_lease_unreadable(state))
        lease_raise(state, LeaseKind::snowflake, unix_ms - snowflake_epoch_unix_ms);
    if (!lease_unreadable(state, LeaseKind::layout)) lease_raise(state, LeaseKind::layout, unix_ms);
}

// Whether this session may raise the server's leases: a superuser, or a
// session with a snowflake shard (its idgen.shard_id, or any in
// idgen.allowed_shards; both settable only by a superuser).
bool may_raise_leases() {
    if (superuser() || snowflake_shard_id >= 0) return true;
    if (snowflake_allowed_shards == nullptr) return false;
    for (std::uint64_t word : snowflake_allowed_shards->words)
        if (word != 0) return true;
    return false;
}

// A database without the origin table: once per server start.
void raise_for_unlabelled_database(SharedState *state) {
    if (lease_database_raised(state, MyDatabaseId)) return;
    raise_leases(state);
    lease_note_database_raised(state, MyDatabaseId);
}

}  // namespace

void lease_origin_adopt(SharedState *state) {
    if (IsBinaryUpgrade)
        ereport(ERROR,
                (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                 errmsg("cannot mint ids while the server runs for pg_upgrade"),
                 errdetail("pg_upgrade started this server in binary-upgrade mode; the IDs "
                           "of the old cluster are not in place yet."),
                 errhint("Mint once pg_upgrade has finished and the server was started "
                         "normally.")));
    if (state == nullptr || !may_raise_leases()) {
        // No leases to raise (without shared memory IDs only order per
        // session), or none this session may raise.
        lease_origin_checked_db = MyDatabaseId;
        return;
    }
    Oid relid = origin_table();
    if (!OidIsValid(relid)) {
        raise_for_unlabelled_database(state);
        lease_origin_checked_db = MyDatabaseId;
        return;
    }
    // The table is readable by PUBLIC, and some commands take a strong lock
    // before they check privileges (CREATE RULE takes AccessExclusiveLock):
    // queued behind any reader's open transaction, such a request would make
    // every new session's first ID wait for it. So the lock is taken only
    // when it is free. When it is not, a table that a session found naming
    // this cluster alone since the start needs no new look; one that nobody
    // has read yet cannot tell, and the leases are raised rather than risk a
    // repeat (once in this session, as a standby does).
    if (!ConditionalLockRelationOid(relid, AccessShareLock)) {
        bool verified = lease_origin_verified(state, MyDatabaseId, relid);
        if (!verified) raise_leases(state);
        // With the snowflake lease unreadable the raise waits for the repair.
        if (verified || !snowflake_lease_unreadable(state))
            lease_origin_checked_db = MyDatabaseId;
        return;
    }
    std::uint64_t self = GetSystemIdentifier();
    bool self_listed = false;
    Relation rel = table_open(relid, NoLock);
    if (scan_origin(rel, self, false, &self_listed)) {
        table_close(rel, NoLock);
        lease_note_origin_verified(state, MyDatabaseId, relid);
        lease_origin_checked_db = MyDatabaseId;
        return;
    }
    // A standby, a read-only transaction or a parallel operation cannot write
    // the table: it raises the leases alone, and the next session again.
    bool can_write = !RecoveryInProgress() && !XactReadOnly && !IsInParallelMode();
    // Adopting sessions take turns; the next one finds the table written. One
    // that would wait (a long transaction adopted first and holds the lock)
    // raises the leases without writing instead.
    can_write = can_write && ConditionalLockRelationOid(relid, ShareUpdateExclusiveLock);
    if (can_write) {
        if (scan_origin(rel, self, false, &self_listed)) {
            table_close(rel, NoLock);
            lease_origin_checked_db = MyDatabaseId;
            return;
        }
    }
    raise_leases(state);
    // With the snowflake lease unreadable its raise waits for the repair: the
    // table keeps naming the old cluster until then.
    bool snowflake_raised = !snowflake_lease_unreadable(state);
    if (can_write && snowflake_raised) {
        scan_origin(rel, self, true, &self_listed);
        if (!self_listed) {
            Datum values[2] = {Int64GetDatum(static_cast<std::int64_t>(self)),
                               TimestampTzGetDatum(GetCurrentTransactionStartTimestamp())};
            bool nulls[2] = {false, false};
            HeapTuple tuple = heap_form_tuple(RelationGetDescr(rel), values, nulls);
            simple_heap_insert(rel, tuple);
            heap_freetuple(tuple);
        }
    }
    table_close(rel, NoLock);
    if (snowflake_raised) lease_origin_checked_db = MyDatabaseId;
}

}  // namespace idgen::pg
