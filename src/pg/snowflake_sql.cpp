// SQL entry points of the snowflake family in both bit splits: snowflake(shard),
// snowflake(), snowflake53(shard), snowflake53(), their decoders and
// boundaries, and the per-shard state (its lines in shared memory, raised with
// the lease). Each entry point names its split; all the rest is shared. Minting
// in any other snowflake layout, snowflake_layout_new(layout[, node]), is here too, on
// the same checks, clock rule and wait, with the layout slots and lease.
#include "core/snowflake.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::SnowflakeNext;
using core::SnowflakeStep;

// What the SQL layer needs of a split: its shards, its counters in
// idgen_stats, and the words its messages use.
struct Split {
    SnowflakeSplit split;
    core::SnowflakeLayout layout;
    Family family;
    const char *name;        // the SQL function that mints it
    const char *end_reason;  // what would happen after the last millisecond
};

constexpr Split kSplit63{SnowflakeSplit::bits63, core::kSnowflake63, Family::snowflake, "snowflake",
                         "later IDs would be negative"};
constexpr Split kSplit53{SnowflakeSplit::bits53, core::kSnowflake53, Family::snowflake53,
                         "snowflake53",
                         "later IDs would exceed 2^53 - 1, JavaScript's largest safe integer"};

// The epoch in microseconds since 1970: the setting's, or a decoder's argument.
std::int64_t setting_epoch_unix_us() {
    return snowflake_epoch_unix_ms * kUsPerMs;
}

TimestampTz timestamp_of_ms(std::int64_t ms_since_epoch, std::int64_t epoch_unix_us) {
    return epoch_unix_us + ms_since_epoch * kUsPerMs - kUnixToPgEpochUs;
}

TimestampTz timestamp_of_ms(std::int64_t ms_since_epoch) {
    return timestamp_of_ms(ms_since_epoch, setting_epoch_unix_us());
}

// The latest epoch argument allowed: its IDs' last millisecond is still a timestamptz.
constexpr std::int64_t kMaxEpochUnixUs = INT64CONST(253402300800000000);  // 10000-01-01

// An epoch passed to a decoder or boundary (22023 unless a finite instant
// from 1970 on, as the setting's), in microseconds since 1970.
std::int64_t epoch_argument(const Split &split, TimestampTz epoch) {
    std::int64_t unix_us = TIMESTAMP_NOT_FINITE(epoch) ? -1 : epoch + kUnixToPgEpochUs;
    if (unix_us < 0 || unix_us >= kMaxEpochUnixUs)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid epoch for %s: \"%s\"", split.name,
                               pstrdup(timestamptz_to_str(epoch))),
                        errdetail("An epoch is a finite instant from 1970-01-01 00:00:00 UTC "
                                  "and before the year 10000, as idgen.snowflake_epoch is.")));
    return unix_us;
}

// A copy: timestamptz_to_str() reuses one static buffer, and messages show several.
const char *timestamp_text(TimestampTz ts) {
    return pstrdup(timestamptz_to_str(ts));
}

const char *epoch_text() {
    return timestamp_text(timestamp_of_ms(0));
}

// The first instant whose IDs would be negative.
const char *exhaustion_text() {
    return timestamp_text(timestamp_of_ms(core::kSnowflakeMaxMs + 1));
}

void check_shard(const Split &split, std::int64_t shard) {
    if (unlikely(!core::snowflake_shard_valid(split.layout, shard)))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("%s shard %lld is out of range", split.name,
                               static_cast<long long>(shard)),
                        errdetail("A shard of %s() is between 0 and %d.", split.name,
                                  core::snowflake_max_shard(split.layout))));
}

// The other split, whose IDs a decoder of this one refuses.
const Split &other_split(const Split &split);

void check_id(const Split &split, std::int64_t id) {
    if (likely(core::snowflake_id_valid(split.layout, id))) return;
    const Split &other = other_split(split);
    if (id >= 0 && core::snowflake_id_valid(other.layout, id))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("%lld is a %s id, not a %s id", static_cast<long long>(id),
                               other.name, split.name),
                        errdetail("IDs of %s() are between %lld and %lld; IDs of %s() between "
                                  "%lld and %lld.",
                                  split.name,
                                  static_cast<long long>(core::snowflake_min_id(split.layout)),
                                  static_cast<long long>(core::snowflake_max_id(split.layout)),
                                  other.name,
                                  static_cast<long long>(core::snowflake_min_id(other.layout)),
                                  static_cast<long long>(core::snowflake_max_id(other.layout))),
                        errhint("Decode it with %s_time(), %s_shard() and %s_seq().", other.name,
                                other.name, other.name)));
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg(id < 0 ? "%s id %lld is negative" : "%s id %lld is out of range",
                           split.name, static_cast<long long>(id)),
                    errdetail("IDs of %s() are between %lld and %lld.", split.name,
                              static_cast<long long>(core::snowflake_min_id(split.layout)),
                              static_cast<long long>(core::snowflake_max_id(split.layout)))));
}

// Whether this session may mint on a shard: its idgen.shard_id, or one in
// idgen.allowed_shards (both settable only by a superuser).
bool may_mint_on(std::int32_t shard) {
    return shard == snowflake_shard_id ||
           (snowflake_allowed_shards != nullptr &&
            core::snowflake_shard_set_contains(*snowflake_allowed_shards, shard));
}

void check_may_mint_on(std::int32_t shard) {
    if (likely(may_mint_on(shard))) return;
    ereport(ERROR,
            (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
             errmsg("permission denied to mint snowflake ids on shard %d", shard),
             errdetail("This session may mint on the shards in idgen.allowed_shards (\"%s\") "
                       "and on its idgen.shard_id.",
                       snowflake_allowed_shards_text != nullptr ? snowflake_allowed_shards_text
                                                                : ""),
             errhint("A superuser can allow the shard with ALTER ROLE ... SET "
                     "idgen.allowed_shards or ALTER DATABASE ... SET idgen.allowed_shards.")));
}

// The region, once it is certain that a split may mint from it.
// The error for a snowflake lease some slot file of which held no lease at
// start: it names the first such file.
[[noreturn]] void report_unreadable_lease(const Split &split, LeaseKind kind, const Lease &lease) {
    int slot = 0;
    while (slot < kLeaseSlots - 1 && (lease.bad_slots & (1u << slot)) == 0) ++slot;
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("the %s lease file \"%s\" is unreadable",
                           kind == LeaseKind::layout ? "snowflake layout" : "snowflake",
                           lease_file_name(kind, slot)),
                    errdetail("Without the high-water mark of issued IDs, %s() could "
                              "repeat an ID, so it is disabled.",
                              split.name),
                    errhint("Check the file in the data directory; once the clock is past "
                            "every issued ID, remove it and restart the server.")));
    pg_unreachable();
}

SharedState *state_for_minting(const Split &split, LeaseKind kind = LeaseKind::snowflake) {
    SharedState *state = shared_state();
    if (unlikely(state == nullptr))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("%s() needs idgen's shared memory", split.name),
                        errdetail("Each shard's counter lives in shared memory so that no two "
                                  "sessions hand out the same ID."),
                        errhint("Add idgen to shared_preload_libraries and restart the server.")));
    if (unlikely(RecoveryInProgress()))
        ereport(ERROR,
                (errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
                 errmsg("cannot mint snowflake ids during recovery"),
                 errdetail("A standby's shards are its primary's: IDs minted here could repeat "
                           "the primary's."),
                 errhint("Call %s() on the primary; a standby mints once it is promoted.",
                         split.name)));
    if (unlikely(lease_unreadable(state, kind)))
        report_unreadable_lease(split, kind, state->leases[static_cast<int>(kind)]);
    lease_origin_check(state);
    return state;
}

[[noreturn]] void report_failed_step(const Split &split, const SnowflakeNext &next, int shard,
                                     std::int64_t now_ms) {
    switch (next.step) {
        case SnowflakeStep::exhausted:
            ereport(ERROR,
                    (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                     errmsg("%s ids ran out at %s", split.name, exhaustion_text()),
                     errdetail("The time field holds 2^40 milliseconds after idgen.snowflake_epoch "
                               "(%s); %s.",
                               epoch_text(), split.end_reason)));
            break;
        case SnowflakeStep::before_epoch:
            ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                            errmsg("system clock is before idgen.snowflake_epoch (%s)", epoch_text())));
            break;
        default:
            // Beyond the setting's cap no setting helps: either the clock was
            // set back that far, or the epoch was moved later, so that new
            // IDs would repeat issued ones; the way through is the old epoch.
            if (next.lead_ms > kMaxClockRegressionCapMs)
                ereport(ERROR,
                        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                         errmsg("system clock is %lld ms behind %s shard %d",
                                static_cast<long long>(next.lead_ms), split.name, shard),
                         errdetail("The shard has issued IDs up to %s counted from "
                                   "idgen.snowflake_epoch (%s). Either idgen.snowflake_epoch was "
                                   "moved later after IDs were issued, so that new IDs would "
                                   "repeat issued ones, or the system clock was set back.",
                                   timestamp_text(timestamp_of_ms(now_ms + next.lead_ms)),
                                   epoch_text()),
                         errhint("Set idgen.snowflake_epoch back to the value the issued IDs "
                                 "count from (an earlier epoch is safe too) and restart the "
                                 "server, or correct the system clock. Raising "
                                 "idgen.max_clock_regression cannot help: it is at most 1 h.")));
            ereport(ERROR,
                    (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                     errmsg("system clock is %lld ms behind %s shard %d",
                            static_cast<long long>(next.lead_ms), split.name, shard),
                     errdetail("IDs may run ahead of the clock by at most "
                               "idgen.max_clock_regression (%d ms). The clock was set back, "
                               "idgen.snowflake_epoch was moved later, or after a crash the "
                               "shard resumed from the lease, up to 2 s ahead of the clock.",
                               max_clock_regression_ms),
                     errhint("Wait for the clock to catch up, or raise "
                             "idgen.max_clock_regression (at most 1 h).")));
    }
    pg_unreachable();
}

// The 63-bit split leaves its first 2^30 ms unused, so that its IDs never
// fall in the 53-bit split's range (see core::snowflake_min_ms).
[[noreturn]] void report_too_close_to_epoch(const Split &split) {
    ereport(ERROR,
            (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
             errmsg("%s() mints from %s on", split.name,
                    timestamp_text(timestamp_of_ms(core::snowflake_min_ms(split.layout)))),
             errdetail("The first 2^30 ms (about 12.4 days) after idgen.snowflake_epoch (%s) "
                       "are left unused, so that every %s() ID is at least 2^53 and never "
                       "looks like a snowflake53() ID.",
                       epoch_text(), split.name),
             errhint("Set idgen.snowflake_epoch at least 13 days in the past before the first "
                     "ID; it must never move later once IDs exist.")));
}

// Sleeps until the clock's next millisecond.
void wait_next_ms(std::int64_t now_ns) {
    CHECK_FOR_INTERRUPTS();
    pg_usleep(static_cast<long>((kNsPerMs - now_ns % kNsPerMs) / kNsPerUs + 1));
}

// The next ID of a shard of a split: above every ID the shard issued, in any
// backend and (through the lease) before any restart.
std::int64_t mint(const Split &split, int shard) {
    SharedState *shared = state_for_minting(split);
    SnowflakeShard *state = snowflake_shard(split.split, shard);
    BackendSlot *slot = my_slot();
    FamilyCounters &counters = slot->counters[static_cast<int>(split.family)];
    for (;;) {
        // The shard is read before the clock (and the clock again after a lost
        // race), so that a stamp other sessions issued within the bound never
        // looks like a clock set back beyond it, which would fail this call.
        std::uint64_t last = pg_atomic_read_u64(&state->last_stamp);
        std::int64_t now_ns = clock_unix_ns();
        std::int64_t now_ms = now_ns / kNsPerMs - snowflake_epoch_unix_ms;
        std::int64_t &last_clock_ms = slot->snowflake_last_clock_ms[static_cast<int>(split.split)];
        bool regressed = now_ms < last_clock_ms;
        last_clock_ms = now_ms;
        if (unlikely(regressed)) pg_atomic_fetch_add_u64(&state->clock_regressions, 1);
        if (unlikely(now_ms >= 0 && now_ms < core::snowflake_min_ms(split.layout)))
            report_too_close_to_epoch(split);
        SnowflakeNext next;
        for (;;) {
            next = core::snowflake_next(split.layout, last, now_ms, max_clock_regression_ms);
            if (next.step != SnowflakeStep::issue) break;
            lease_cover(shared, LeaseKind::snowflake, core::snowflake_stamp_ms(split.layout, next.stamp));
            // On failure last is refreshed with the winner's stamp; retry above it.
            if (pg_atomic_compare_exchange_u64(&state->last_stamp, &last, next.stamp)) break;
            now_ns = clock_unix_ns();
            now_ms = now_ns / kNsPerMs - snowflake_epoch_unix_ms;
        }
        if (likely(next.step == SnowflakeStep::issue)) {
            bool borrowed = next.lead_ms > 0;
            if (borrowed && core::snowflake_stamp_seq(split.layout, next.stamp) == 0)
                pg_atomic_fetch_add_u64(&state->borrowed_ms, 1);
            std::int64_t unix_ms =
                snowflake_epoch_unix_ms + core::snowflake_stamp_ms(split.layout, next.stamp);
            count_issue(slot, split.family, unix_ms * kUsPerMs, regressed, borrowed);
            return core::snowflake_id(split.layout, next.stamp, shard);
        }
        if (next.step != SnowflakeStep::wait) report_failed_step(split, next, shard, now_ms);
        pg_atomic_fetch_add_u64(&state->waits, 1);
        pg_atomic_write_u64(&counters.waits, pg_atomic_read_u64(&counters.waits) + 1);
        wait_next_ms(now_ns);
    }
}

// Milliseconds since the epoch of a finite timestamp that IDs can hold.
std::int64_t ms_of_timestamp(const Split &split, TimestampTz ts, std::int64_t epoch_unix_us,
                             bool epoch_from_setting) {
    if (TIMESTAMP_NOT_FINITE(ts))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("cannot build a %s boundary from an infinite timestamp", split.name)));
    std::int64_t ms = floor_div(ts + kUnixToPgEpochUs - epoch_unix_us, kUsPerMs);
    if (ms < 0 || ms > core::kSnowflakeMaxMs)
        ereport(ERROR,
                (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                 errmsg("timestamp out of range for %s: \"%s\"", split.name, timestamp_text(ts)),
                 errdetail("IDs of %s() hold instants from %s (%s) up to %s, exclusive.",
                           split.name,
                           epoch_from_setting ? "idgen.snowflake_epoch" : "the epoch",
                           timestamp_text(timestamp_of_ms(0, epoch_unix_us)),
                           timestamp_text(timestamp_of_ms(core::kSnowflakeMaxMs + 1, epoch_unix_us)))));
    return ms;
}

// split(shard): the shard's next ID. NULL is an error, not a NULL ID.
Datum mint_on_shard(const Split &split, FunctionCallInfo fcinfo) {
    if (PG_ARGISNULL(0))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("%s shard must not be null", split.name)));
    std::int32_t shard = PG_GETARG_INT32(0);
    check_shard(split, shard);
    check_may_mint_on(shard);
    PG_RETURN_INT64(mint(split, shard));
}

// split(): the next ID of the shard in idgen.shard_id.
Datum mint_on_default_shard(const Split &split) {
    if (unlikely(snowflake_shard_id < 0))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("idgen.shard_id is not set"),
                        errhint("Set idgen.shard_id (0 to %d) in postgresql.conf or with ALTER "
                                "DATABASE ... SET, or pass the shard: %s(shard).",
                                core::snowflake_max_shard(split.layout), split.name)));
    if (unlikely(!core::snowflake_shard_valid(split.layout, snowflake_shard_id)))
        ereport(ERROR,
                (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                 errmsg("idgen.shard_id %d is out of range for %s()", snowflake_shard_id,
                        split.name),
                 errdetail("A shard of %s() is between 0 and %d.", split.name,
                           core::snowflake_max_shard(split.layout)),
                 errhint("Pass the shard: %s(shard), or set idgen.shard_id to a shard both "
                         "splits have.",
                         split.name)));
    PG_RETURN_INT64(mint(split, snowflake_shard_id));
}

// split_time(id[, epoch]): the millisecond in which the ID was issued.
Datum id_time(const Split &split, std::int64_t id, std::int64_t epoch_unix_us) {
    check_id(split, id);
    PG_RETURN_TIMESTAMPTZ(timestamp_of_ms(core::snowflake_id_ms(split.layout, id), epoch_unix_us));
}

Datum id_shard(const Split &split, std::int64_t id) {
    check_id(split, id);
    PG_RETURN_INT32(core::snowflake_id_shard(split.layout, id));
}

Datum id_seq(const Split &split, std::int64_t id) {
    check_id(split, id);
    PG_RETURN_INT32(core::snowflake_id_seq(split.layout, id));
}

// split_boundary(ts, shard[, epoch]): the smallest ID of the millisecond holding ts on a shard.
Datum boundary(const Split &split, TimestampTz ts, std::int32_t shard, std::int64_t epoch_unix_us,
               bool epoch_from_setting) {
    std::int64_t ms = ms_of_timestamp(split, ts, epoch_unix_us, epoch_from_setting);
    check_shard(split, shard);
    PG_RETURN_INT64(core::snowflake_boundary(split.layout, ms, shard));
}

const Split &other_split(const Split &split) {
    return split.split == SnowflakeSplit::bits63 ? kSplit53 : kSplit63;
}

// Where a split's shards start among the region's shard lines.
constexpr int first_shard_line(SnowflakeSplit split) {
    return split == SnowflakeSplit::bits63 ? 0 : shard_count(SnowflakeSplit::bits63);
}

// Layouts. The layout's name as messages show it, and its definition.
struct LayoutCall {
    const char *name;
    const core::Layout &layout;
};

// "UTC time" of Unix ms (within a layout's years) for messages.
const char *unix_ms_text(std::int64_t unix_ms) {
    return timestamp_text(unix_ms * kUsPerMs - kUnixToPgEpochUs);
}

// The node fields' names and widths, "datacenter 5, worker 5", for messages.
const char *node_fields_text(const core::Layout &layout) {
    StringInfoData buf;
    initStringInfo(&buf);
    for (int i = 0; i < layout.field_count; ++i)
        if (layout.fields[i].kind == core::LayoutFieldKind::node)
            appendStringInfo(&buf, "%s%s %d", buf.len == 0 ? "" : ", ", layout.fields[i].name,
                             layout.fields[i].bits);
    return buf.data;
}

[[noreturn]] void report_failed_layout_step(const LayoutCall &call, const SnowflakeNext &next,
                                            std::int64_t node) {
    const core::Layout &l = call.layout;
    switch (next.step) {
        case SnowflakeStep::exhausted:
            ereport(ERROR,
                    (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                     errmsg("snowflake layout \"%s\" ran out at %s", call.name,
                            unix_ms_text(core::layout_end_ms(l))),
                     errdetail("Its %d-bit time field of %lld ms units from %s holds times "
                               "before %s only.",
                               l.fields[core::layout_time_index(l)].bits,
                               static_cast<long long>(l.unit_ms), unix_ms_text(l.epoch_ms),
                               unix_ms_text(core::layout_end_ms(l))),
                     errhint("Mint in a layout with more time bits, a longer unit or a later "
                             "epoch.")));
            break;
        case SnowflakeStep::before_epoch:
            ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                            errmsg("system clock is before the epoch of snowflake layout \"%s\" (%s)",
                                   call.name, unix_ms_text(l.epoch_ms))));
            break;
        default:
            ereport(ERROR,
                    (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                     errmsg("system clock is %lld ms behind snowflake layout \"%s\" node %lld",
                            static_cast<long long>(next.lead_ms), call.name,
                            static_cast<long long>(node)),
                     errdetail("IDs may run ahead of the clock by at most "
                               "idgen.max_clock_regression (%d ms), in whole ticks of the "
                               "layout's %lld ms. The clock was set back, or after a crash the "
                               "layout resumed from the lease, up to 2 s ahead of the clock.",
                               max_clock_regression_ms, static_cast<long long>(l.unit_ms)),
                     errhint("Wait for the clock to catch up, or raise "
                             "idgen.max_clock_regression (at most 1 h).")));
    }
    pg_unreachable();
}

// This backend's last slot: a call site mints for one layout and node, mostly.
SnowflakeLayoutSlot *last_layout_slot = nullptr;

// The slot of a key: found without a lock among the claimed ones, or claimed
// under the mutex (held for the compares and one key's copy, nothing that waits).
SnowflakeLayoutSlot *layout_slot(SharedState *shared, const LayoutCall &call,
                                 const core::LayoutMintKey &key) {
    if (likely(last_layout_slot != nullptr &&
               core::layout_mint_key_equal(last_layout_slot->key, key)))
        return last_layout_slot;
    int count = shared->layout_slot_count;
    for (int i = 0; i < count; ++i) {
        SnowflakeLayoutSlot *slot = shared_layout_slot(i);
        if (pg_atomic_read_u32(&slot->claimed) == 0) break;  // slots are claimed in order
        pg_read_barrier();
        if (core::layout_mint_key_equal(slot->key, key)) return last_layout_slot = slot;
    }
    // A layout that cannot mint now (run out, or its epoch to come) takes no slot.
    SnowflakeNext first =
        core::layout_mint_next(key, 0, clock_unix_ns() / kNsPerMs, max_clock_regression_ms);
    if (first.step == SnowflakeStep::exhausted || first.step == SnowflakeStep::before_epoch)
        report_failed_layout_step(call, first, key.node);
    SnowflakeLayoutSlot *found = nullptr;
    SpinLockAcquire(&shared->layout_slots_mutex);
    for (int i = 0; i < count && found == nullptr; ++i) {
        SnowflakeLayoutSlot *slot = shared_layout_slot(i);
        if (pg_atomic_read_u32(&slot->claimed) == 0) {
            slot->key = key;
            pg_atomic_write_u64(&slot->last_stamp, 0);
            pg_write_barrier();
            pg_atomic_write_u32(&slot->claimed, 1);
            found = slot;
        } else if (core::layout_mint_key_equal(slot->key, key)) {
            found = slot;
        }
    }
    SpinLockRelease(&shared->layout_slots_mutex);
    if (unlikely(found == nullptr))
        ereport(ERROR,
                (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
                 errmsg("no snowflake layout slot is free for layout \"%s\" node %lld", call.name,
                        static_cast<long long>(key.node)),
                 errdetail("All %d slots of idgen.max_snowflake_layouts hold other layouts or "
                           "nodes, each until the server stops.",
                           count),
                 errhint("Raise idgen.max_snowflake_layouts in postgresql.conf and restart the "
                         "server.")));
    return last_layout_slot = found;
}

// The next ID of a (layout, node): above every ID its slot issued, in any
// backend, and above the layout lease's floor, every ID issued before the
// start, a crash or a promotion. mint()'s loop, in ticks of the layout.
std::int64_t mint_in_layout(const LayoutCall &call, const core::LayoutMintKey &key) {
    SharedState *shared = state_for_minting(kSplit63, LeaseKind::layout);
    std::int64_t node = key.node;
    SnowflakeLayoutSlot *slot = layout_slot(shared, call, key);
    Lease &lease = shared->leases[static_cast<int>(LeaseKind::layout)];
    BackendSlot *backend = my_slot();
    FamilyCounters &counters = backend->counters[static_cast<int>(Family::snowflake_layout)];
    for (;;) {
        // As in mint(): the slot before the clock.
        std::uint64_t last = pg_atomic_read_u64(&slot->last_stamp);
        std::int64_t now_ns = clock_unix_ns();
        bool regressed = now_ns / kNsPerMs < backend->snowflake_layout_last_clock_ms;
        backend->snowflake_layout_last_clock_ms = now_ns / kNsPerMs;
        // The floor (a division) matters only while the slot's last tick is below it.
        auto floor_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&lease.floor_ms));
        core::SnowflakeStamp floor =
            last != 0 && core::layout_stamp_unix_ms(key, last) >= floor_ms
                ? 0
                : core::layout_stamp_below(key, floor_ms);
        SnowflakeNext next;
        for (;;) {
            next = core::layout_mint_next(key, std::max(last, floor), now_ns / kNsPerMs,
                                          max_clock_regression_ms);
            if (next.step != SnowflakeStep::issue) break;
            lease_cover(shared, LeaseKind::layout, core::layout_stamp_unix_ms(key, next.stamp));
            // On failure last is refreshed with the winner's stamp; retry above it.
            if (pg_atomic_compare_exchange_u64(&slot->last_stamp, &last, next.stamp)) break;
            now_ns = clock_unix_ns();
        }
        if (likely(next.step == SnowflakeStep::issue)) {
            count_issue(backend, Family::snowflake_layout,
                        core::layout_stamp_unix_ms(key, next.stamp) * kUsPerMs, regressed,
                        next.lead_ms > 0);
            return core::layout_mint_id(key, next.stamp);
        }
        if (next.step != SnowflakeStep::wait) report_failed_layout_step(call, next, node);
        pg_atomic_write_u64(&counters.waits, pg_atomic_read_u64(&counters.waits) + 1);
        // At the lead bound: until the clock's next tick.
        std::int64_t now_tick = (now_ns / kNsPerMs - key.epoch_ms) / key.unit_ms;
        clock_wait_until(now_ns, (key.epoch_ms + (now_tick + 1) * key.unit_ms) * kNsPerMs);
    }
}

// Whether a key is a split's ID space (idgen.snowflake_epoch, 1 ms, its
// time, shard and sequence widths), whose IDs snowflake() and snowflake53()
// mint from their shards.
bool is_split_space(const core::LayoutMintKey &key, const Split &split) {
    using core::LayoutFieldKind;
    return key.epoch_ms == snowflake_epoch_unix_ms && key.unit_ms == 1 && key.part_count == 3 &&
           key.kinds[0] == LayoutFieldKind::time && key.bits[0] == core::kSnowflakeTimeBits &&
           key.kinds[1] == LayoutFieldKind::node && key.bits[1] == split.layout.shard_bits &&
           key.kinds[2] == LayoutFieldKind::sequence && key.bits[2] == split.layout.seq_bits;
}

}  // namespace

std::int64_t snowflake_layout_mint(const char *name, const core::Layout &layout,
                                   const std::int64_t *node, core::LayoutMintKey &key_memo) {
    LayoutCall call{name, layout};
    int node_bits = core::layout_node_bits(layout);
    std::int64_t max_node = (std::int64_t{1} << node_bits) - 1;
    std::int64_t value;
    if (node == nullptr) {
        if (unlikely(snowflake_shard_id < 0))
            ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                            errmsg("idgen.shard_id is not set"),
                            errhint("Set idgen.shard_id in postgresql.conf or with ALTER DATABASE "
                                    "... SET, or pass the node: snowflake_layout_new('%s', node).",
                                    name)));
        if (unlikely(snowflake_shard_id > max_node))
            ereport(ERROR,
                    (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                     errmsg("idgen.shard_id %d is out of range for snowflake layout \"%s\"",
                            snowflake_shard_id, name),
                     errdetail("Its node fields (%s) hold 0 to %lld.", node_fields_text(layout),
                               static_cast<long long>(max_node)),
                     errhint("Pass the node: snowflake_layout_new('%s', node).", name)));
        value = snowflake_shard_id;
    } else {
        value = *node;
        if (unlikely((value < 0 || value > max_node) && node_bits == 0))
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("node %lld is out of range for snowflake layout \"%s\"",
                                   static_cast<long long>(value), name),
                            errdetail("The layout has no node fields: its one node is 0.")));
        if (unlikely(value < 0 || value > max_node))
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("node %lld is out of range for snowflake layout \"%s\"",
                                   static_cast<long long>(value), name),
                            errdetail("Its node fields (%s) hold 0 to %lld, read as one integer, "
                                      "the most significant field first.",
                                      node_fields_text(layout), static_cast<long long>(max_node))));
        // The rights of snowflake(shard): a node is a shard of idgen.allowed_shards.
        if (unlikely(value > core::kSnowflakeMaxShard || !may_mint_on(static_cast<std::int32_t>(value))))
            ereport(ERROR,
                    (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                     errmsg("permission denied to mint snowflake ids on node %lld of layout \"%s\"",
                            static_cast<long long>(value), name),
                     errdetail("This session may mint on the nodes in idgen.allowed_shards "
                               "(\"%s\") and on its idgen.shard_id, in every layout.",
                               snowflake_allowed_shards_text != nullptr ? snowflake_allowed_shards_text
                                                                        : ""),
                     errhint("A superuser can allow the node with ALTER ROLE ... SET "
                             "idgen.allowed_shards or ALTER DATABASE ... SET idgen.allowed_shards.")));
    }
    if (key_memo.part_count == 0 || key_memo.node != value)
        key_memo = core::layout_mint_key(layout, value);
    const core::LayoutMintKey &key = key_memo;
    // instagram (and a layout of the same ID space under another name) is
    // snowflake()'s: its shards, its lease, its IDs.
    if (is_split_space(key, kSplit63)) return mint(kSplit63, static_cast<int>(value));
    if (is_split_space(key, kSplit53)) return mint(kSplit53, static_cast<int>(value));
    return mint_in_layout(call, key);
}

void snowflake_layout_slots_startup() {
    SharedState *shared = shared_state();
    for (int i = 0; i < shared->layout_slot_count; ++i) {
        SnowflakeLayoutSlot *slot = shared_layout_slot(i);
        pg_atomic_init_u32(&slot->claimed, 0);
        pg_atomic_init_u64(&slot->last_stamp, 0);
    }
}

std::int64_t snowflake_layout_slots_issued_below() {
    SharedState *shared = shared_state();
    std::int64_t below = 0;
    for (int i = 0; i < shared->layout_slot_count; ++i) {
        SnowflakeLayoutSlot *slot = shared_layout_slot(i);
        if (pg_atomic_read_u32(&slot->claimed) == 0) break;
        pg_read_barrier();
        core::SnowflakeStamp last = pg_atomic_read_u64(&slot->last_stamp);
        if (last != 0) below = std::max(below, core::layout_stamp_unix_ms(slot->key, last) + 1);
    }
    return below;
}

SnowflakeShard *snowflake_shard(SnowflakeSplit split, int shard) {
    return shared_shard_line(first_shard_line(split) + shard);
}

void snowflake_shards_startup(std::int64_t lease_ms) {
    for (int i = 0; i < kSnowflakeShardLines; ++i) {
        SnowflakeShard *shard = shared_shard_line(i);
        pg_atomic_init_u64(&shard->last_stamp, 0);
        pg_atomic_init_u64(&shard->borrowed_ms, 0);
        pg_atomic_init_u64(&shard->waits, 0);
        pg_atomic_init_u64(&shard->clock_regressions, 0);
    }
    snowflake_shards_raise(lease_ms);
}

void snowflake_shards_raise(std::int64_t lease_ms) {
    for (int s = 0; s < kSnowflakeSplits; ++s) {
        auto split = static_cast<SnowflakeSplit>(s);
        core::SnowflakeStamp stamp = core::snowflake_stamp_below(layout_of(split), lease_ms);
        for (int shard = 0; shard < shard_count(split); ++shard) {
            pg_atomic_uint64 *last = &snowflake_shard(split, shard)->last_stamp;
            std::uint64_t seen = pg_atomic_read_u64(last);
            while (seen < stamp && !pg_atomic_compare_exchange_u64(last, &seen, stamp)) {
            }
        }
    }
}

std::int64_t snowflake_shards_issued_below() {
    std::int64_t below = 0;
    for (int s = 0; s < kSnowflakeSplits; ++s) {
        auto split = static_cast<SnowflakeSplit>(s);
        for (int shard = 0; shard < shard_count(split); ++shard) {
            core::SnowflakeStamp last = pg_atomic_read_u64(&snowflake_shard(split, shard)->last_stamp);
            if (last != 0)
                below = std::max(below, core::snowflake_stamp_ms(layout_of(split), last) + 1);
        }
    }
    return below;
}

}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_snowflake);
PG_FUNCTION_INFO_V1(idgen_snowflake_default_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake_time);
PG_FUNCTION_INFO_V1(idgen_snowflake_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake_seq);
PG_FUNCTION_INFO_V1(idgen_snowflake_boundary);
PG_FUNCTION_INFO_V1(idgen_snowflake_boundary_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake53);
PG_FUNCTION_INFO_V1(idgen_snowflake53_default_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake53_time);
PG_FUNCTION_INFO_V1(idgen_snowflake53_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake53_seq);
PG_FUNCTION_INFO_V1(idgen_snowflake53_boundary);
PG_FUNCTION_INFO_V1(idgen_snowflake53_boundary_shard);
PG_FUNCTION_INFO_V1(idgen_snowflake_time_epoch);
PG_FUNCTION_INFO_V1(idgen_snowflake53_time_epoch);
PG_FUNCTION_INFO_V1(idgen_snowflake_boundary_epoch);
PG_FUNCTION_INFO_V1(idgen_snowflake53_boundary_epoch);
PG_FUNCTION_INFO_V1(idgen_snowflake_shard_state);

// snowflake(shard), snowflake53(shard): the shard's next ID.
Datum idgen_snowflake(PG_FUNCTION_ARGS) {
    return mint_on_shard(kSplit63, fcinfo);
}
Datum idgen_snowflake53(PG_FUNCTION_ARGS) {
    return mint_on_shard(kSplit53, fcinfo);
}

// snowflake(), snowflake53(): the next ID of the shard in idgen.shard_id.
Datum idgen_snowflake_default_shard(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    return mint_on_default_shard(kSplit63);
}
Datum idgen_snowflake53_default_shard(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    return mint_on_default_shard(kSplit53);
}

// *_time(id), *_shard(id), *_seq(id): the ID's fields.
Datum idgen_snowflake_time(PG_FUNCTION_ARGS) {
    return id_time(kSplit63, PG_GETARG_INT64(0), setting_epoch_unix_us());
}
Datum idgen_snowflake53_time(PG_FUNCTION_ARGS) {
    return id_time(kSplit53, PG_GETARG_INT64(0), setting_epoch_unix_us());
}

// *_time(id, epoch): the same, counted from the given epoch (IMMUTABLE).
Datum idgen_snowflake_time_epoch(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    return id_time(kSplit63, id, epoch_argument(kSplit63, PG_GETARG_TIMESTAMPTZ(1)));
}
Datum idgen_snowflake53_time_epoch(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    return id_time(kSplit53, id, epoch_argument(kSplit53, PG_GETARG_TIMESTAMPTZ(1)));
}
Datum idgen_snowflake_shard(PG_FUNCTION_ARGS) {
    return id_shard(kSplit63, PG_GETARG_INT64(0));
}
Datum idgen_snowflake53_shard(PG_FUNCTION_ARGS) {
    return id_shard(kSplit53, PG_GETARG_INT64(0));
}
Datum idgen_snowflake_seq(PG_FUNCTION_ARGS) {
    return id_seq(kSplit63, PG_GETARG_INT64(0));
}
Datum idgen_snowflake53_seq(PG_FUNCTION_ARGS) {
    return id_seq(kSplit53, PG_GETARG_INT64(0));
}

// *_boundary(ts[, shard]): the smallest ID of the millisecond holding ts.
Datum idgen_snowflake_boundary(PG_FUNCTION_ARGS) {
    return boundary(kSplit63, PG_GETARG_TIMESTAMPTZ(0), 0, setting_epoch_unix_us(), true);
}
Datum idgen_snowflake53_boundary(PG_FUNCTION_ARGS) {
    return boundary(kSplit53, PG_GETARG_TIMESTAMPTZ(0), 0, setting_epoch_unix_us(), true);
}
Datum idgen_snowflake_boundary_shard(PG_FUNCTION_ARGS) {
    return boundary(kSplit63, PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_INT32(1), setting_epoch_unix_us(),
                    true);
}
Datum idgen_snowflake53_boundary_shard(PG_FUNCTION_ARGS) {
    return boundary(kSplit53, PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_INT32(1), setting_epoch_unix_us(),
                    true);
}

// *_boundary(ts, shard, epoch): the same, counted from the given epoch (IMMUTABLE).
Datum idgen_snowflake_boundary_epoch(PG_FUNCTION_ARGS) {
    std::int64_t epoch = epoch_argument(kSplit63, PG_GETARG_TIMESTAMPTZ(2));
    return boundary(kSplit63, PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_INT32(1), epoch, false);
}
Datum idgen_snowflake53_boundary_epoch(PG_FUNCTION_ARGS) {
    std::int64_t epoch = epoch_argument(kSplit53, PG_GETARG_TIMESTAMPTZ(2));
    return boundary(kSplit53, PG_GETARG_TIMESTAMPTZ(0), PG_GETARG_INT32(1), epoch, false);
}

// idgen_snowflake_shard_state(): shards of either split that issued IDs or saw
// events since the server started.
Datum idgen_snowflake_shard_state(PG_FUNCTION_ARGS) {
    constexpr int kColumns = 7;
    InitMaterializedSRF(fcinfo, 0);
    auto *rsinfo = reinterpret_cast<ReturnSetInfo *>(fcinfo->resultinfo);
    SharedState *state = shared_state();
    if (state == nullptr) {
        ereport(NOTICE, (errmsg("idgen shared memory is not available; no shard has state"),
                         errhint("Add idgen to shared_preload_libraries and restart the server.")));
        return static_cast<Datum>(0);
    }
    Lease &lease = state->leases[static_cast<int>(LeaseKind::snowflake)];
    auto floor_ms = static_cast<std::int64_t>(pg_atomic_read_u64(&lease.floor_ms));
    // Like pg_sequences' last_value: a shard's state is shown to the sessions
    // that may mint on it, and to members of pg_read_all_stats.
    bool all_shards = has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_STATS);
    for (const Split *split : {&kSplit63, &kSplit53}) {
        core::SnowflakeStamp start = core::snowflake_stamp_below(split->layout, floor_ms);
        for (int shard = 0; shard <= core::snowflake_max_shard(split->layout); ++shard) {
            if (!all_shards && !may_mint_on(shard)) continue;
            SnowflakeShard *s = snowflake_shard(split->split, shard);
            core::SnowflakeStamp last = pg_atomic_read_u64(&s->last_stamp);
            std::uint64_t borrowed = pg_atomic_read_u64(&s->borrowed_ms);
            std::uint64_t waits = pg_atomic_read_u64(&s->waits);
            std::uint64_t regressions = pg_atomic_read_u64(&s->clock_regressions);
            bool issued = last != start;
            if (!issued && borrowed == 0 && waits == 0 && regressions == 0) continue;
            Datum values[kColumns] = {
                CStringGetTextDatum(split->name),
                Int32GetDatum(shard),
                Int64GetDatum(core::snowflake_id(split->layout, last, shard)),
                TimestampTzGetDatum(timestamp_of_ms(core::snowflake_stamp_ms(split->layout, last))),
                Int64GetDatum(static_cast<std::int64_t>(borrowed)),
                Int64GetDatum(static_cast<std::int64_t>(waits)),
                Int64GetDatum(static_cast<std::int64_t>(regressions)),
            };
            bool nulls[kColumns] = {false, false, !issued, !issued, false, false, false};
            tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
        }
    }
    return static_cast<Datum>(0);
}

}  // extern "C"
