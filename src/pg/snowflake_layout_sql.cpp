// SQL entry points of snowflake layouts (core/snowflake_layout.hpp): the
// check behind snowflake_layout_define() and the snowflake_layouts table's
// CHECK, decoding, composing and boundaries in any layout by name, and
// snowflake_layout_new(layout[, node]), which mints through snowflake_sql.cpp. A
// predefined layout comes from the core (instagram with idgen.snowflake_epoch);
// any other from the snowflake_layouts table, read once per call site and
// statement (fn_extra).
#include <cstdlib>
#include <cstring>

#include "core/snowflake_layout.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::Layout;
using core::LayoutError;
using core::LayoutFieldKind;
using core::LayoutIdError;

const char *reason_text(LayoutError e) {
    switch (e) {
        case LayoutError::none: break;
        case LayoutError::too_many_fields:
            return "A layout has at most 8 fields: time, sequence and up to 6 node fields.";
        case LayoutError::bad_width: return "Every field is 1 to 63 bits wide.";
        case LayoutError::too_wide:
            return "The fields total more than 63 bits; the sign bit of a bigint is never set.";
        case LayoutError::no_time: return "A layout has one field named \"time\".";
        case LayoutError::two_times: return "A layout has one field named \"time\".";
        case LayoutError::no_sequence: return "A layout has one field named \"sequence\".";
        case LayoutError::two_sequences: return "A layout has one field named \"sequence\".";
        case LayoutError::bad_name:
            return "A field name is 1 to 63 characters: lowercase letters a-z, digits and "
                   "underscores, not starting with a digit.";
        case LayoutError::duplicate_name: return "Two fields have the same name.";
        case LayoutError::reserved_name:
            return "\"unix_ms\" and \"timestamp\" are reserved for the decomposition.";
        case LayoutError::bad_unit: return "The time unit is 1 ms to 86400000 ms (a day).";
        case LayoutError::bad_epoch:
            return "The epoch is a whole millisecond from 1970-01-01 00:00:00 UTC, before the "
                   "year 10000.";
        case LayoutError::outlasts_year_9999:
            return "The time field would hold times from the year 10000 on: give it fewer bits "
                   "or a shorter unit.";
    }
    return "";
}

[[noreturn]] void report_invalid(const char *name, LayoutError e) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("invalid snowflake layout \"%s\"", name), errdetail("%s", reason_text(e))));
    pg_unreachable();
}

// "YYYY-MM-DD HH:MM:SS.mmm+00" of Unix ms (within the core's years).
const char *ms_text(std::int64_t unix_ms) {
    char buf[24];
    core::layout_format_ms(unix_ms, buf);
    return psprintf("%s+00", buf);
}

TimestampTz timestamp_of_unix_ms(std::int64_t unix_ms) {
    return unix_ms * kUsPerMs - kUnixToPgEpochUs;
}

// A layout from SQL values: the field names' kinds are "time", "sequence" and
// node for any other name. Reports what the core refuses.
Layout layout_of(const char *name, TimestampTz epoch, std::int32_t unit_ms, ArrayType *names,
                 ArrayType *bits) {
    Layout l{};
    if (!core::layout_name_valid(name))
        ereport(ERROR,
                (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                 errmsg("invalid snowflake layout name \"%s\"", name),
                 errdetail("A layout name is 1 to 63 characters: lowercase letters a-z, digits "
                           "and underscores, not starting with a digit.")));
    if (TIMESTAMP_NOT_FINITE(epoch) || (epoch + kUnixToPgEpochUs) % kUsPerMs != 0)
        report_invalid(name, LayoutError::bad_epoch);
    l.epoch_ms = (epoch + kUnixToPgEpochUs) / kUsPerMs;
    l.unit_ms = unit_ms;
    Datum *name_values, *bit_values;
    bool *name_nulls, *bit_nulls;
    int name_count, bit_count;
    if (ARR_NDIM(names) > 1 || ARR_NDIM(bits) > 1)
        ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
                        errmsg("field names and widths of a snowflake layout are one-dimensional arrays")));
    deconstruct_array(names, TEXTOID, -1, false, TYPALIGN_INT, &name_values, &name_nulls, &name_count);
    deconstruct_array(bits, INT4OID, 4, true, TYPALIGN_INT, &bit_values, &bit_nulls, &bit_count);
    if (name_count != bit_count)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid snowflake layout \"%s\"", name),
                        errdetail("%d field names and %d widths were given; each field has one of each.",
                                  name_count, bit_count)));
    if (name_count > core::kLayoutMaxFields) report_invalid(name, LayoutError::too_many_fields);
    for (int i = 0; i < name_count; ++i) {
        if (name_nulls[i] || bit_nulls[i])
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                            errmsg("invalid snowflake layout \"%s\"", name),
                            errdetail("A field name or width is null.")));
        text *t = DatumGetTextPP(name_values[i]);
        std::size_t n = VARSIZE_ANY_EXHDR(t);
        if (n > core::kLayoutMaxName) report_invalid(name, LayoutError::bad_name);
        std::memcpy(l.fields[i].name, VARDATA_ANY(t), n);
        l.fields[i].name[n] = '\0';
        if (std::strlen(l.fields[i].name) != n) report_invalid(name, LayoutError::bad_name);
        std::int32_t w = DatumGetInt32(bit_values[i]);
        if (w < 1 || w > 63) report_invalid(name, LayoutError::bad_width);
        l.fields[i].bits = static_cast<std::uint8_t>(w);
        l.fields[i].kind = std::strcmp(l.fields[i].name, "time") == 0       ? LayoutFieldKind::time
                           : std::strcmp(l.fields[i].name, "sequence") == 0 ? LayoutFieldKind::sequence
                                                                            : LayoutFieldKind::node;
    }
    l.field_count = name_count;
    LayoutError e = core::layout_validate(l, false);
    if (e != LayoutError::none) report_invalid(name, e);
    return l;
}

// The layouts one call site read from the table, up to 8 (then the oldest
// is replaced), kept for the statement: a column of a few layout names costs
// a table read per name, not per row.
struct LayoutCacheEntry {
    char name[core::kLayoutMaxName + 1];
    Layout layout;
};
inline constexpr int kLayoutCacheSize = 8;
struct LayoutCache {
    int count;
    int next;
    LayoutCacheEntry entries[kLayoutCacheSize];
    // snowflake_layout_new()'s last layout, found by the argument's bytes
    // alone: a minting call site reads no table, copies no name and
    // allocates nothing per row.
    bool has_minted;
    std::size_t minted_length;
    LayoutCacheEntry minted;
    core::LayoutMintKey minted_key;  // its last node's key (part_count 0: none yet)
};

// The schema-qualified name of the layouts table, as the extension's schema is named now.
const char *table_name() {
    Oid ext = get_extension_oid("idgen", false);
    char *schema = get_namespace_name(extension_schema(ext));
    return psprintf("%s.snowflake_layouts", quote_identifier(schema));
}

// The layout named by argument arg: predefined, or the table's row.
Layout layout_argument(FunctionCallInfo fcinfo, int arg) {
    char *name = text_to_cstring(PG_GETARG_TEXT_PP(arg));
    if (auto l = core::predefined_layout(name, snowflake_epoch_unix_ms)) return *l;
    auto *cache = static_cast<LayoutCache *>(fcinfo->flinfo->fn_extra);
    if (cache != nullptr)
        for (int i = 0; i < cache->count; ++i)
            if (std::strcmp(cache->entries[i].name, name) == 0) return cache->entries[i].layout;
    bool found = false;
    Layout l{};
    if (std::strlen(name) <= core::kLayoutMaxName) {
        if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "SPI_connect failed");
        Oid types[1] = {TEXTOID};
        Datum values[1] = {CStringGetTextDatum(name)};
        const char *query = psprintf(
            "SELECT epoch, time_unit_ms, field_names, field_bits FROM %s WHERE name "
            "OPERATOR(pg_catalog.=) $1",
            table_name());
        if (SPI_execute_with_args(query, 1, types, values, nullptr, true, 1) != SPI_OK_SELECT)
            elog(ERROR, "reading the snowflake_layouts table failed");
        if (SPI_processed == 1) {
            HeapTuple row = SPI_tuptable->vals[0];
            TupleDesc desc = SPI_tuptable->tupdesc;
            bool isnull[4];
            Datum d[4];
            for (int i = 0; i < 4; ++i) d[i] = SPI_getbinval(row, desc, i + 1, &isnull[i]);
            if (!isnull[0] && !isnull[1] && !isnull[2] && !isnull[3]) {
                l = layout_of(name, DatumGetTimestampTz(d[0]), DatumGetInt32(d[1]),
                              DatumGetArrayTypeP(d[2]), DatumGetArrayTypeP(d[3]));
                found = true;
            }
        }
        SPI_finish();
    }
    if (!found)
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                        errmsg("snowflake layout \"%s\" does not exist", name),
                        errhint("The predefined layouts are instagram, twitter, discord, sonyflake "
                                "and pgedge; snowflake_layout_define() defines others.")));
    if (cache == nullptr) {
        cache = static_cast<LayoutCache *>(
            MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(LayoutCache)));
        fcinfo->flinfo->fn_extra = cache;
    }
    LayoutCacheEntry &entry = cache->entries[cache->next];
    std::strcpy(entry.name, name);
    entry.layout = l;
    cache->next = (cache->next + 1) % kLayoutCacheSize;
    if (cache->count < kLayoutCacheSize) ++cache->count;
    return l;
}

const char *layout_name(FunctionCallInfo fcinfo, int arg) {
    return text_to_cstring(PG_GETARG_TEXT_PP(arg));
}

// An ID's fields, or the error for an ID the layout cannot hold.
core::LayoutValues decompose(FunctionCallInfo fcinfo, const Layout &l, std::int64_t id, int arg) {
    core::LayoutValues v{};
    LayoutIdError e = core::layout_decompose(l, id, v);
    if (e == LayoutIdError::negative)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake id %lld is negative", static_cast<long long>(id)),
                        errdetail("No layout gives a negative id; a discord id after 2084-09-06 "
                                  "would need the sign bit of a bigint.")));
    if (e == LayoutIdError::above_layout)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("snowflake id %lld is out of range for layout \"%s\"",
                               static_cast<long long>(id), layout_name(fcinfo, arg)),
                        errdetail("The layout's fields hold %d bits: its ids are below %lld.",
                                  core::layout_total_bits(l),
                                  static_cast<long long>(std::int64_t{1}
                                                         << core::layout_total_bits(l)))));
    return v;
}

// The time field's value of a timestamp, or the error when the layout cannot hold it.
std::int64_t time_value(FunctionCallInfo fcinfo, const Layout &l, TimestampTz ts, int arg) {
    const char *name = layout_name(fcinfo, arg);
    if (TIMESTAMP_NOT_FINITE(ts))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("snowflake layout \"%s\" cannot hold an infinite timestamp", name)));
    std::int64_t unix_ms = floor_div(ts + kUnixToPgEpochUs, kUsPerMs);
    std::int64_t t = 0;
    if (core::layout_time_value(l, unix_ms, t) != LayoutIdError::none)
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                        errmsg("timestamp out of range for snowflake layout \"%s\": \"%s\"", name,
                               timestamptz_to_str(ts)),
                        errdetail("The layout holds times from %s until before %s.",
                                  ms_text(l.epoch_ms), ms_text(core::layout_end_ms(l)))));
    return t;
}

// A strict integer from a jsonb number (numeric_int8 would round 1.5).
bool jsonb_integer(const JsonbValue &v, std::int64_t &out) {
    if (v.type != jbvNumeric) return false;
    const char *s = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v.val.numeric)));
    const char *p = s;
    if (*p == '-') ++p;
    if (*p == '\0') return false;
    for (const char *q = p; *q != '\0'; ++q)
        if (*q < '0' || *q > '9') return false;
    if (std::strlen(p) > 18) return false;  // beyond every field; refused as out of range anyway
    out = std::strtoll(s, nullptr, 10);
    return true;
}

// The layout snowflake_layout_new() mints in: the call site's last one when
// the name is the same, else layout_argument's.
LayoutCache &minting_layout(FunctionCallInfo fcinfo) {
    text *t = PG_GETARG_TEXT_PP(0);
    std::size_t length = VARSIZE_ANY_EXHDR(t);
    auto *cache = static_cast<LayoutCache *>(fcinfo->flinfo->fn_extra);
    if (likely(cache != nullptr && cache->has_minted && cache->minted_length == length &&
               std::memcmp(cache->minted.name, VARDATA_ANY(t), length) == 0))
        return *cache;
    Layout l = layout_argument(fcinfo, 0);
    cache = static_cast<LayoutCache *>(fcinfo->flinfo->fn_extra);
    if (cache == nullptr) {
        cache = static_cast<LayoutCache *>(
            MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(LayoutCache)));
        fcinfo->flinfo->fn_extra = cache;
    }
    // layout_argument refused every name longer than a layout's.
    std::memcpy(cache->minted.name, VARDATA_ANY(t), length);
    cache->minted.name[length] = '\0';
    cache->minted.layout = l;
    cache->minted_key.part_count = 0;
    cache->minted_length = length;
    cache->has_minted = true;
    return *cache;
}

// A NULL argument of snowflake_layout_new() is an error, as snowflake(NULL) is.
void check_not_null(FunctionCallInfo fcinfo, int arg, const char *what) {
    if (PG_ARGISNULL(arg))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("snowflake %s must not be null", what)));
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen;
using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_snowflake_layout_check);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_decompose);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_time);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_field);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_compose);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_boundary);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_end);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_mint);
PG_FUNCTION_INFO_V1(idgen_snowflake_layout_mint_node);

// snowflake_layout_check(name, epoch, time_unit_ms, field_names, field_bits
// [, at]): true, or the error saying why the layout is refused; with at, also
// refused when its time field had run out by then.
Datum idgen_snowflake_layout_check(PG_FUNCTION_ARGS) {
    for (int i = 0; i < 5; ++i)
        if (PG_ARGISNULL(i)) PG_RETURN_NULL();
    const char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
    if (core::predefined_layout(name, 0))
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT),
                        errmsg("snowflake layout \"%s\" is predefined", name),
                        errhint("Choose another name; the predefined layouts are instagram, "
                                "twitter, discord, sonyflake and pgedge.")));
    Layout l = layout_of(name, PG_GETARG_TIMESTAMPTZ(1), PG_GETARG_INT32(2),
                         PG_GETARG_ARRAYTYPE_P(3), PG_GETARG_ARRAYTYPE_P(4));
    if (PG_NARGS() > 5 && !PG_ARGISNULL(5)) {
        TimestampTz at = PG_GETARG_TIMESTAMPTZ(5);
        std::int64_t at_ms = TIMESTAMP_NOT_FINITE(at) ? 0 : floor_div(at + kUnixToPgEpochUs, kUsPerMs);
        if (core::layout_ran_out(l, at_ms))
            ereport(ERROR,
                    (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
                     errmsg("snowflake layout \"%s\" ran out at %s", name,
                            ms_text(core::layout_end_ms(l))),
                     errdetail("Its %d-bit time field of %lld ms units from %s holds times "
                               "before %s only.",
                               l.fields[core::layout_time_index(l)].bits,
                               static_cast<long long>(l.unit_ms), ms_text(l.epoch_ms),
                               ms_text(core::layout_end_ms(l))),
                     errhint("Give the time field more bits, a longer unit or a later epoch.")));
    }
    PG_RETURN_BOOL(true);
}

// snowflake_layout_decompose(id, layout): the fields by name, the time's
// Unix ms and its timestamp, as jsonb.
Datum idgen_snowflake_layout_decompose(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    Layout l = layout_argument(fcinfo, 1);
    core::LayoutValues v = decompose(fcinfo, l, id, 1);
    StringInfoData buf;
    initStringInfo(&buf);
    appendStringInfoChar(&buf, '{');
    for (int i = 0; i < l.field_count; ++i)
        appendStringInfo(&buf, "\"%s\": %lld, ", l.fields[i].name,
                         static_cast<long long>(v.values[i]));
    std::int64_t unix_ms = core::layout_unix_ms(l, v.values[core::layout_time_index(l)]);
    char when[24];
    core::layout_format_ms(unix_ms, when);
    when[10] = 'T';
    appendStringInfo(&buf, "\"unix_ms\": %lld, \"timestamp\": \"%sZ\"}",
                     static_cast<long long>(unix_ms), when);
    PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data)));
}

// snowflake_layout_time(id, layout): the start of the time unit the ID was made in.
Datum idgen_snowflake_layout_time(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    Layout l = layout_argument(fcinfo, 1);
    core::LayoutValues v = decompose(fcinfo, l, id, 1);
    PG_RETURN_TIMESTAMPTZ(
        timestamp_of_unix_ms(core::layout_unix_ms(l, v.values[core::layout_time_index(l)])));
}

// snowflake_layout_field(id, layout, field): one field's value.
Datum idgen_snowflake_layout_field(PG_FUNCTION_ARGS) {
    std::int64_t id = PG_GETARG_INT64(0);
    Layout l = layout_argument(fcinfo, 1);
    const char *field = text_to_cstring(PG_GETARG_TEXT_PP(2));
    int index = core::layout_find(l, field);
    if (index < 0) {
        StringInfoData names;
        initStringInfo(&names);
        for (int i = 0; i < l.field_count; ++i)
            appendStringInfo(&names, "%s%s", i == 0 ? "" : ", ", l.fields[i].name);
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                        errmsg("snowflake layout \"%s\" has no field \"%s\"", layout_name(fcinfo, 1),
                               field),
                        errdetail("Its fields are %s.", names.data)));
    }
    core::LayoutValues v = decompose(fcinfo, l, id, 1);
    PG_RETURN_INT64(v.values[index]);
}

// snowflake_layout_compose(layout, ts, fields): the ID of the time unit
// holding ts with the node fields and sequence of the jsonb object (missing
// ones 0).
Datum idgen_snowflake_layout_compose(PG_FUNCTION_ARGS) {
    Layout l = layout_argument(fcinfo, 0);
    const char *name = layout_name(fcinfo, 0);
    core::LayoutValues v{};
    int time_index = core::layout_time_index(l);
    v.values[time_index] = time_value(fcinfo, l, PG_GETARG_TIMESTAMPTZ(1), 0);
    Jsonb *fields = PG_GETARG_JSONB_P(2);
    if (!JB_ROOT_IS_OBJECT(fields) || JB_ROOT_IS_SCALAR(fields))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("the fields of a snowflake id are a jsonb object"),
                        errhint("For example '{\"worker\": 1, \"sequence\": 0}'.")));
    JsonbIterator *it = JsonbIteratorInit(&fields->root);
    JsonbValue key, value;
    JsonbIteratorToken token;
    int index = -1;
    while ((token = JsonbIteratorNext(&it, &key, true)) != WJB_DONE) {
        if (token != WJB_KEY) continue;
        const char *k = pnstrdup(key.val.string.val, key.val.string.len);
        index = core::layout_find(l, k);
        if (index < 0 || index == time_index)
            ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                            errmsg("snowflake layout \"%s\" has no field \"%s\" to set", name, k),
                            errdetail(index == time_index
                                          ? "The time field is set by the timestamp argument."
                                          : "A key names a node field or the sequence.")));
        token = JsonbIteratorNext(&it, &value, true);
        std::int64_t n = 0;
        if (token != WJB_VALUE || !jsonb_integer(value, n))
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("field \"%s\" of a snowflake id is not an integer", k)));
        v.values[index] = n;
        if (n < 0 || n > core::layout_field_max(l, index))
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("field \"%s\" of snowflake layout \"%s\" is out of range: %lld",
                                   k, name, static_cast<long long>(n)),
                            errdetail("Its %d bits hold 0 to %lld.", l.fields[index].bits,
                                      static_cast<long long>(core::layout_field_max(l, index)))));
    }
    std::int64_t id = 0;
    int bad = 0;
    if (core::layout_compose(l, v, id, bad) != LayoutIdError::none)
        elog(ERROR, "snowflake layout field %d out of range", bad);  // checked above
    PG_RETURN_INT64(id);
}

// snowflake_layout_boundary(layout, ts): the smallest ID of the time unit
// holding ts, for range predicates.
Datum idgen_snowflake_layout_boundary(PG_FUNCTION_ARGS) {
    Layout l = layout_argument(fcinfo, 0);
    std::int64_t t = time_value(fcinfo, l, PG_GETARG_TIMESTAMPTZ(1), 0);
    std::int64_t id = 0;
    if (core::layout_boundary(l, core::layout_unix_ms(l, t), false, id) != LayoutIdError::none)
        elog(ERROR, "snowflake layout boundary out of range");  // checked above
    PG_RETURN_INT64(id);
}

// snowflake_layout_new(layout): the next ID in the layout for the node in idgen.shard_id.
Datum idgen_snowflake_layout_mint(PG_FUNCTION_ARGS) {
    check_not_null(fcinfo, 0, "layout");
    LayoutCache &c = minting_layout(fcinfo);
    PG_RETURN_INT64(snowflake_layout_mint(c.minted.name, c.minted.layout, nullptr, c.minted_key));
}

// snowflake_layout_new(layout, node): the next ID in the layout for the node.
Datum idgen_snowflake_layout_mint_node(PG_FUNCTION_ARGS) {
    check_not_null(fcinfo, 0, "layout");
    check_not_null(fcinfo, 1, "node");
    LayoutCache &c = minting_layout(fcinfo);
    std::int64_t node = PG_GETARG_INT64(1);
    PG_RETURN_INT64(snowflake_layout_mint(c.minted.name, c.minted.layout, &node, c.minted_key));
}

// snowflake_layout_end(layout): the first instant the layout's time field cannot hold.
Datum idgen_snowflake_layout_end(PG_FUNCTION_ARGS) {
    Layout l = layout_argument(fcinfo, 0);
    PG_RETURN_TIMESTAMPTZ(timestamp_of_unix_ms(core::layout_end_ms(l)));
}

}  // extern "C"
