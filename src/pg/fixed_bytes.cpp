// The fixed-width types' shared glue (fixed_bytes.hpp).
#include "pg/fixed_bytes.hpp"

namespace idgen::pg {
namespace {

struct AbbreviationState {
    hyperLogLogState distinct_keys;
    std::int64_t keys_seen;
    bool estimating;
};

Datum abbreviate(Datum original, SortSupport ssup) {
    const std::uint8_t *bytes = fixed_bytes(original);
    std::uint64_t key = 0;
    for (int i = 0; i < 8; ++i) key = (key << 8) | bytes[i];
    auto *state = static_cast<AbbreviationState *>(ssup->ssup_extra);
    ++state->keys_seen;
    if (state->estimating) {
        auto folded = static_cast<std::uint32_t>(key ^ (key >> 32));
        addHyperLogLog(&state->distinct_keys, DatumGetUInt32(hash_uint32(folded)));
    }
    return static_cast<Datum>(key);
}

// Keys that are mostly equal (the same few IDs repeated, or the IDs of one
// server in one second, which share their first 8 bytes) would make every
// comparison a tie and then a full comparison: give up abbreviating them.
// Once keys are clearly varied, stop paying for the estimate.
bool abandon_abbreviation(int, SortSupport ssup) {
    auto *state = static_cast<AbbreviationState *>(ssup->ssup_extra);
    constexpr std::int64_t kSampleBeforeJudging = 10'000;
    constexpr double kClearlyVaried = 100'000;
    constexpr double kRowsPerDistinctKeyToAbandon = 1'000;
    if (!state->estimating || state->keys_seen < kSampleBeforeJudging) return false;
    double distinct = estimateHyperLogLog(&state->distinct_keys);
    if (distinct > kClearlyVaried) {
        state->estimating = false;
        return false;
    }
    return distinct < static_cast<double>(state->keys_seen) / kRowsPerDistinctKeyToAbandon;
}

}  // namespace

Datum fixed_bytes_datum(const std::uint8_t *bytes, std::size_t size) {
    auto *copy = static_cast<std::uint8_t *>(palloc(size));
    std::memcpy(copy, bytes, size);
    return PointerGetDatum(copy);
}

Datum fixed_bytes_recv(FunctionCallInfo fcinfo, const FixedBytesType &type) {
    auto *message = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
    int length = message->len - message->cursor;
    if (length != static_cast<int>(type.size))
        ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                        errmsg("incorrect binary data format for type %s", type.type_name),
                        errdetail("A binary %s is %zu bytes; this value has %d.", type.format_name,
                                  type.size, length)));
    return fixed_bytes_datum(
        reinterpret_cast<const std::uint8_t *>(pq_getmsgbytes(message, static_cast<int>(type.size))),
        type.size);
}

Datum fixed_bytes_send(Datum value, std::size_t size) {
    StringInfoData message;
    pq_begintypsend(&message);
    pq_sendbytes(&message, DatumGetPointer(value), static_cast<int>(size));
    PG_RETURN_BYTEA_P(pq_endtypsend(&message));
}

Datum fixed_bytes_to_bytea(Datum value, std::size_t size) {
    return fixed_bytes_field(value, 0, size);
}

Datum fixed_bytes_field(Datum value, std::size_t offset, std::size_t length) {
    auto *bytes = static_cast<bytea *>(palloc(VARHDRSZ + length));
    SET_VARSIZE(bytes, VARHDRSZ + length);
    std::memcpy(VARDATA(bytes), fixed_bytes(value) + offset, length);
    PG_RETURN_BYTEA_P(bytes);
}

Datum fixed_bytes_from_bytea(FunctionCallInfo fcinfo, const FixedBytesType &type) {
    bytea *bytes = PG_GETARG_BYTEA_PP(0);
    std::size_t length = VARSIZE_ANY_EXHDR(bytes);
    if (length != type.size) {
        IDGEN_ERRSAVE(fcinfo->context,
                      (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
                       errmsg("invalid input length for type %s", type.type_name),
                       errdetail("%s is %zu bytes; this bytea has %zu.", type.bytea_subject,
                                 type.size, length),
                       length == type.text_length
                           ? errhint("%zu bytes may be %s text, which a cast from text reads: "
                                     "convert_from(bytes, 'UTF8')::%s.",
                                     type.text_length, type.format_name, type.type_name)
                           : 0));
        return static_cast<Datum>(0);  // a soft error, saved for the caller
    }
    return fixed_bytes_datum(reinterpret_cast<const std::uint8_t *>(VARDATA_ANY(bytes)), type.size);
}

void fixed_bytes_sortsupport(SortSupport ssup, int (*compare)(Datum, Datum, SortSupport)) {
    ssup->comparator = compare;
#if SIZEOF_DATUM >= 8
    if (ssup->abbreviate) {
        MemoryContext caller_context = MemoryContextSwitchTo(ssup->ssup_cxt);
        auto *state = static_cast<AbbreviationState *>(palloc(sizeof(AbbreviationState)));
        initHyperLogLog(&state->distinct_keys, 10);
        state->keys_seen = 0;
        state->estimating = true;
        MemoryContextSwitchTo(caller_context);
        ssup->ssup_extra = state;
        ssup->abbrev_converter = abbreviate;
        ssup->abbrev_abort = abandon_abbreviation;
        ssup->abbrev_full_comparator = compare;
        ssup->comparator = ssup_datum_unsigned_cmp;
    }
#endif
}

}  // namespace idgen::pg
