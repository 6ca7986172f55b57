// Named secret keys (secret_key.hpp): idgen_key_create(name) and
// idgen_key_import(name, key [, key_id]), which add a key id to a name, the
// lookup the keyed functions use, and the trigger that tells every backend
// the table changed.
//
// The table idgen_secret.idgen_secret_key is revoked from PUBLIC, in a schema
// PUBLIC may not use, so that no role without a grant can even name it: none
// can hold a lock on it in an open transaction, or queue one (CREATE RULE
// takes AccessExclusiveLock before it checks ownership) that the library's
// reads would wait behind, as any role can on a table of a schema it uses.
//
// The library reads the table the way PostgreSQL reads its catalogs: an index
// scan under the catalog snapshot, in C, with no SQL statement. So a role
// needs only EXECUTE on a keyed function to use a key, never SELECT on the
// table; and since nothing is planned or executed, no key reaches
// pg_stat_statements, auto_explain, log_statement or a constraint's error
// detail. SPI under the extension owner's identity would also work without
// the grant, but it would run statements that those facilities see (with the
// key as a parameter value), and it would depend on search_path and on the
// owner role staying as it was. Adding a key writes the row the same way,
// after checking that the current role has INSERT on the table (the
// extension's owner, a superuser, or a role granted it) and that the
// transaction may write; so a key made by idgen_key_create() is drawn from
// idgen's CSPRNG inside the server and appears in no statement.
//
// Each backend keeps the keys it used in a small cache. The table's rows
// change only through idgen_key_create()/idgen_key_import(), which invalidate
// the table's relcache entry, or through SQL, whose triggers do the same;
// every backend's relcache callback then empties its cache (at its next
// transaction, or lock), as catalog caches are emptied.
#include <algorithm>
#include <cstring>

#include "pg/secret_key.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

constexpr const char *kKeySchema = "idgen_secret";
constexpr const char *kKeyTable = "idgen_secret_key";
constexpr int kNameMaxBytes = 63;
constexpr int kCacheEntries = 16;
// The table's columns: name, key_id, key, created.
constexpr AttrNumber kAttName = 1;
constexpr AttrNumber kAttKeyId = 2;
constexpr AttrNumber kAttKey = 3;
constexpr int kAttributes = 4;

struct CachedKey {
    bool used;
    bool newest;  // looked up as the name's newest key id
    int name_bytes;
    char name[kNameMaxBytes];
    SecretKey key;
};

CachedKey cache[kCacheEntries];
int next_victim = 0;
// The table the entries came from; a change to it (or to every relation)
// empties the cache.
Oid cached_table = InvalidOid;
// Counts invalidations: a lookup whose reading saw one pass caches nothing.
std::uint64_t invalidations = 0;
bool callback_registered = false;

void forget_keys() {
    explicit_bzero(cache, sizeof cache);
    next_victim = 0;
}

void key_table_changed(Datum, Oid relid) {
    if (relid != InvalidOid && relid != cached_table) return;
    forget_keys();
    cached_table = InvalidOid;
    ++invalidations;
}

// The key name's bytes, checked: 1 to 63 of them (the table's CHECK).
void check_name(const text *name, const char **bytes, int *length) {
    *bytes = VARDATA_ANY(name);
    *length = static_cast<int>(VARSIZE_ANY_EXHDR(name));
    if (*length < 1 || *length > kNameMaxBytes)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid name for an idgen key"),
                        errdetail("A key name has 1 to %d bytes; this one has %d.", kNameMaxBytes, *length)));
}

// The key table of this database's idgen: idgen_secret.idgen_secret_key,
// a member of the extension (so that no look-alike stands in for it).
Oid key_table() {
    Oid extension = get_extension_oid("idgen", true);
    Oid schema = get_namespace_oid(kKeySchema, true);
    Oid relid = OidIsValid(schema) ? get_relname_relid(kKeyTable, schema) : InvalidOid;
    if (!OidIsValid(extension) || !OidIsValid(relid) ||
        getExtensionOfObject(RelationRelationId, relid) != extension)
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE),
                        errmsg("idgen's key table %s.%s does not exist in this database", kKeySchema,
                               kKeyTable),
                        errdetail("The table belongs to the extension, under this name.")));
    return relid;
}

// A scan of the rows of one name (and key id, when given), through the
// primary key when it is there, under a fresh catalog snapshot.
SysScanDesc begin_name_scan(Relation rel, const text *name, const std::int32_t *key_id, ScanKeyData keys[2]) {
    ScanKeyInit(&keys[0], kAttName, BTEqualStrategyNumber, F_TEXTEQ,
                PointerGetDatum(const_cast<text *>(name)));
    int nkeys = 1;
    if (key_id != nullptr) {
        ScanKeyInit(&keys[1], kAttKeyId, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(*key_id));
        nkeys = 2;
    }
#if PG_VERSION_NUM >= 180000
    // 18 adds whether a deferrable key will do (it is not deferrable).
    Oid index = RelationGetPrimaryKeyIndex(rel, false);
#else
    Oid index = RelationGetPrimaryKeyIndex(rel);
#endif
    return systable_beginscan(rel, index, OidIsValid(index), nullptr, nkeys, keys);
}

std::int32_t row_key_id(HeapTuple tuple, TupleDesc desc) {
    bool isnull = false;
    Datum value = heap_getattr(tuple, kAttKeyId, desc, &isnull);
    return isnull ? 0 : DatumGetInt32(value);
}

// The key bytes of a row into out; false if they are not 16 bytes.
bool row_key_bytes(HeapTuple tuple, TupleDesc desc, std::uint8_t out[core::kSipKeyBytes], int *length) {
    bool isnull = false;
    Datum value = heap_getattr(tuple, kAttKey, desc, &isnull);
    *length = 0;
    if (isnull) return false;
    bytea *key = DatumGetByteaPP(value);
    *length = static_cast<int>(VARSIZE_ANY_EXHDR(key));
    bool ok = *length == static_cast<int>(core::kSipKeyBytes);
    if (ok) std::memcpy(out, VARDATA_ANY(key), core::kSipKeyBytes);
    if (reinterpret_cast<Pointer>(key) != DatumGetPointer(value)) pfree(key);
    return ok;
}

CachedKey *cached(const char *name, int length, bool newest, std::int32_t key_id) {
    for (CachedKey &entry : cache)
        if (entry.used && entry.newest == newest && entry.name_bytes == length &&
            (newest || entry.key.key_id == key_id) && std::memcmp(entry.name, name, length) == 0)
            return &entry;
    return nullptr;
}

// Reads the key from table relid into out; ereports when there is none.
void read_key(Oid relid, const text *name, const char *bytes, int length, bool newest,
              std::int32_t key_id, SecretKey *out) {
    Relation rel = table_open(relid, AccessShareLock);
    TupleDesc desc = RelationGetDescr(rel);
    ScanKeyData keys[2];
    SysScanDesc scan = begin_name_scan(rel, name, newest ? nullptr : &key_id, keys);
    bool found = false;
    bool usable = false;
    int key_bytes = 0;
    std::int32_t found_id = 0;
    HeapTuple tuple;
    while ((tuple = systable_getnext(scan)) != nullptr) {
        std::int32_t id = row_key_id(tuple, desc);
        if (found && id <= found_id) continue;
        found = true;
        found_id = id;
        usable = row_key_bytes(tuple, desc, out->bytes, &key_bytes);
    }
    systable_endscan(scan);
    // As catalog reads do: the lock only while reading.
    table_close(rel, AccessShareLock);
    out->key_id = found_id;
    if (!found && newest)
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                        errmsg("idgen key \"%.*s\" does not exist", length, bytes),
                        errhint("idgen_key_create() makes a key.")));
    if (!found)
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                        errmsg("idgen key \"%.*s\" has no key id %d", length, bytes, key_id)));
    if (!usable) {
        explicit_bzero(out, sizeof *out);
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("idgen key \"%.*s\" key id %d is unusable", length, bytes, found_id),
                        errdetail("Its key column holds %d bytes; a key has %zu.", key_bytes,
                                  core::kSipKeyBytes),
                        errhint("Delete the row and import the key again with idgen_key_import().")));
    }
}

}  // namespace

void secret_key_get(const text *name, bool newest, std::int32_t key_id, SecretKey *out) {
    const char *bytes;
    int length;
    check_name(name, &bytes, &length);
    if (CachedKey *entry = cached(bytes, length, newest, key_id)) {
        *out = entry->key;
        return;
    }
    if (!callback_registered) {
        CacheRegisterRelcacheCallback(key_table_changed, 0);
        callback_registered = true;
    }
    Oid relid = key_table();
    if (cached_table != relid) {
        forget_keys();
        cached_table = relid;
    }
    // A change committed after the reading's snapshot invalidates the table
    // later, and empties the cache then. One whose invalidation arrives while
    // the table is read (none can, after the snapshot is taken, but the
    // reading is not ours to guarantee) may be of a change it did not see:
    // the key then serves this call and is not kept.
    std::uint64_t before = invalidations;
    read_key(relid, name, bytes, length, newest, key_id, out);
    if (invalidations != before) return;
    CachedKey &entry = cache[next_victim];
    next_victim = (next_victim + 1) % kCacheEntries;
    entry.used = true;
    entry.newest = newest;
    entry.name_bytes = length;
    std::memcpy(entry.name, bytes, length);
    entry.key = *out;
}

namespace {

// The key a call site used last (its fn_extra), valid while no invalidation
// has emptied this backend's cache since it was read: a row of a scan then
// skips the lookup. Wiped when the call site's memory context goes.
struct CallSiteKey {
    std::uint64_t generation;
    bool newest;
    std::int32_t key_id;
    int name_bytes;
    char name[kNameMaxBytes];
    core::SipKey key;
};

void wipe_call_site_key(void *site) {
    explicit_bzero(site, sizeof(CallSiteKey));
}

}  // namespace

core::SipKey secret_key_of_call(FunctionCallInfo fcinfo) {
    const text *name = PG_GETARG_TEXT_PP(1);
    bool newest = PG_NARGS() < 3;
    std::int32_t key_id = newest ? 0 : PG_GETARG_INT32(2);
    const char *bytes = VARDATA_ANY(name);
    int length = static_cast<int>(VARSIZE_ANY_EXHDR(name));
    auto *site = static_cast<CallSiteKey *>(fcinfo->flinfo->fn_extra);
    if (site != nullptr && site->generation == invalidations && site->newest == newest &&
        (newest || site->key_id == key_id) && site->name_bytes == length &&
        std::memcmp(site->name, bytes, length) == 0)
        return site->key;
    std::uint64_t before = invalidations;
    SecretKey key;
    secret_key_get(name, newest, key_id, &key);
    core::SipKey sip = core::sip_key(key.bytes);
    explicit_bzero(&key, sizeof key);
    if (site == nullptr) {
        MemoryContext context = fcinfo->flinfo->fn_mcxt;
        site = static_cast<CallSiteKey *>(MemoryContextAllocZero(context, sizeof(CallSiteKey)));
        auto *wipe = static_cast<MemoryContextCallback *>(MemoryContextAlloc(context, sizeof(MemoryContextCallback)));
        wipe->func = wipe_call_site_key;
        wipe->arg = site;
        MemoryContextRegisterResetCallback(context, wipe);
        fcinfo->flinfo->fn_extra = site;
    }
    // secret_key_get() checked the name's length (1 to kNameMaxBytes).
    site->generation = before;
    site->newest = newest;
    site->key_id = key_id;
    site->name_bytes = length;
    std::memcpy(site->name, bytes, length);
    site->key = sip;
    return sip;
}

namespace {

// Adds key id key_id of NAME (the next one when next) with the 16 bytes key;
// returns the key id.
std::int32_t insert_key(const char *function, const text *name, const std::uint8_t *key, bool next,
                        std::int32_t key_id) {
    const char *bytes;
    int length;
    check_name(name, &bytes, &length);
    if (!next && key_id < 1)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid key id for idgen key \"%.*s\": %d", length, bytes, key_id),
                        errdetail("Key ids start at 1.")));
    // The row is written without the executor: check what it would.
    PreventCommandIfReadOnly(function);
    PreventCommandIfParallelMode(function);
    Oid relid = key_table();
    if (pg_class_aclcheck(relid, GetUserId(), ACL_INSERT) != ACLCHECK_OK)
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                        errmsg("permission denied to create idgen keys"),
                        errdetail("Adding a key needs INSERT on table %s.%s.", kKeySchema, kKeyTable),
                        errhint("The extension's owner has it, and may grant it.")));
    // Key creators take turns (readers do not wait): the next one sees this
    // one's key id. Held until commit.
    Relation rel = table_open(relid, ShareRowExclusiveLock);
    TupleDesc desc = RelationGetDescr(rel);
    ScanKeyData keys[2];
    SysScanDesc scan = begin_name_scan(rel, name, nullptr, keys);
    std::int32_t newest = 0;
    bool taken = false;
    HeapTuple tuple;
    while ((tuple = systable_getnext(scan)) != nullptr) {
        std::int32_t id = row_key_id(tuple, desc);
        newest = std::max(newest, id);
        taken = taken || id == key_id;
    }
    systable_endscan(scan);
    if (next) {
        if (newest == PG_INT32_MAX)
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("idgen key \"%.*s\" has used every key id", length, bytes),
                            errdetail("Its newest key id is %d.", newest),
                            errhint("Use a new key name.")));
        key_id = newest + 1;
    } else if (taken) {
        ereport(ERROR, (errcode(ERRCODE_UNIQUE_VIOLATION),
                        errmsg("idgen key \"%.*s\" already has key id %d", length, bytes, key_id),
                        errhint("A key id names one key forever: import under another key id.")));
    }
    bytea *key_datum = static_cast<bytea *>(palloc(VARHDRSZ + core::kSipKeyBytes));
    SET_VARSIZE(key_datum, VARHDRSZ + core::kSipKeyBytes);
    std::memcpy(VARDATA(key_datum), key, core::kSipKeyBytes);
    Datum values[kAttributes] = {PointerGetDatum(const_cast<text *>(name)), Int32GetDatum(key_id),
                                 PointerGetDatum(key_datum),
                                 TimestampTzGetDatum(GetCurrentTransactionStartTimestamp())};
    bool nulls[kAttributes] = {false, false, false, false};
    HeapTuple row = heap_form_tuple(desc, values, nulls);
    CatalogTupleInsert(rel, row);
    explicit_bzero(row->t_data, row->t_len);
    heap_freetuple(row);
    explicit_bzero(VARDATA(key_datum), core::kSipKeyBytes);
    pfree(key_datum);
    table_close(rel, NoLock);
    // Every backend's cache of this table goes, this one's at once; the key
    // is usable in the rest of this statement.
    CacheInvalidateRelcacheByRelid(relid);
    CommandCounterIncrement();
    return key_id;
}

}  // namespace

}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_key_create);
PG_FUNCTION_INFO_V1(idgen_key_import);
PG_FUNCTION_INFO_V1(idgen_secret_key_changed);

// idgen_key_create(name text) → integer: a new key id of NAME with 16 bytes
// from idgen's CSPRNG, which no statement carries.
Datum idgen_key_create(PG_FUNCTION_ARGS) {
    const text *name = PG_GETARG_TEXT_PP(0);
    std::uint8_t key[idgen::core::kSipKeyBytes];
    random_bytes(key, sizeof key);
    std::int32_t key_id = insert_key("idgen_key_create()", name, key, true, 0);
    explicit_bzero(key, sizeof key);
    PG_RETURN_INT32(key_id);
}

// idgen_key_import(name text, key bytea [, key_id integer]) → integer: the
// given 16 bytes as NAME's next key id, or as key_id (the same key on
// another server, or restored).
Datum idgen_key_import(PG_FUNCTION_ARGS) {
    const text *name = PG_GETARG_TEXT_PP(0);
    const bytea *key = PG_GETARG_BYTEA_PP(1);
    bool next = PG_NARGS() < 3;
    std::int32_t key_id = next ? 0 : PG_GETARG_INT32(2);
    int length = static_cast<int>(VARSIZE_ANY_EXHDR(key));
    if (length != static_cast<int>(idgen::core::kSipKeyBytes))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid key for idgen_key_import: %d bytes", length),
                        errdetail("A key has exactly %zu bytes.", idgen::core::kSipKeyBytes),
                        errhint("idgen_key_create() makes one in the server, where no statement shows it.")));
    std::uint8_t bytes[idgen::core::kSipKeyBytes];
    std::memcpy(bytes, VARDATA_ANY(key), sizeof bytes);
    std::int32_t made = insert_key("idgen_key_import()", name, bytes, next, key_id);
    explicit_bzero(bytes, sizeof bytes);
    PG_RETURN_INT32(made);
}

// The triggers of idgen_secret_key (rows, TRUNCATE): every backend forgets its keys.
Datum idgen_secret_key_changed(PG_FUNCTION_ARGS) {
    if (!CALLED_AS_TRIGGER(fcinfo))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("idgen_secret_key_changed() must be called as a trigger")));
    auto *trigger = reinterpret_cast<TriggerData *>(fcinfo->context);
    CacheInvalidateRelcacheByRelid(RelationGetRelid(trigger->tg_relation));
    return static_cast<Datum>(0);  // an AFTER trigger's result is ignored
}

}  // extern "C"
