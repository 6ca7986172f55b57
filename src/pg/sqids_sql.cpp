// Sqids (core/sqids.hpp): sqids_encode(numbers | number, alphabet,
// min_length, blocklist), sqids_decode (strict: the code must be the one its
// numbers encode to), sqids_decode_one (strict, exactly one number) and
// sqids_decode_lenient (the spec's: invalid text gives no numbers), and
// sqids_default_blocklist(), the spec's words as text[]. The
// options are checked and the alphabet shuffled and the blocklist filtered
// once per call site: kept in fn_extra with a copy of the option values, and
// rebuilt when they change. A NULL blocklist is the spec's default list.
#include <cstring>

#include "core/sqids.hpp"
#include "core/sqids_blocklist.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

namespace core = idgen::core;

#ifdef FLOAT8PASSBYVAL
constexpr bool kInt8ByVal = FLOAT8PASSBYVAL;
#else
constexpr bool kInt8ByVal = true;  // int8 is always passed by value
#endif

// The call site's options, parsed, and the values they were parsed from.
struct OptionsCache {
    bool valid;
    int alphabet_bytes;
    char alphabet[core::kSqidsMaxAlphabet];  // a valid alphabet has at most 128 bytes
    std::int32_t min_length;
    bool default_list;
    Size list_bytes;   // the blocklist array's bytes, copied to list
    char *list;        // these three in fn_mcxt
    core::SqidsWord *words;
    char *lowered;
    core::Sqids sqids;
};

void parse_alphabet(const char *text, int bytes, core::Sqids &sqids) {
    core::SqidsAlphabetCheck check = core::sqids_init(sqids, std::string_view(text, static_cast<std::size_t>(bytes)));
    switch (check.status) {
        case core::SqidsAlphabetStatus::ok: return;
        case core::SqidsAlphabetStatus::multibyte:
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid alphabet for sqids: multibyte characters are not allowed"),
                            errdetail("The byte at position %zu is not an ASCII character; a Sqids alphabet "
                                      "has at least %zu distinct single-byte characters.",
                                      check.position + 1, core::kSqidsMinAlphabet),
                            errhint("Sqids codes are the same in every implementation only over ASCII.")));
            break;
        case core::SqidsAlphabetStatus::too_short:
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid alphabet for sqids: fewer than %zu characters", core::kSqidsMinAlphabet),
                            errdetail("The alphabet has %d characters; a Sqids alphabet has at least %zu distinct "
                                      "single-byte characters.",
                                      bytes, core::kSqidsMinAlphabet)));
            break;
        case core::SqidsAlphabetStatus::repeated:
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid alphabet for sqids: \"%c\" appears more than once", text[check.position]),
                            errdetail("Character \"%c\" is at positions %zu and %zu; each character of the "
                                      "alphabet must be distinct.",
                                      text[check.position], check.first + 1, check.position + 1)));
            break;
    }
}

// Filters the blocklist's words against the alphabet into cache->words.
void parse_blocklist(FunctionCallInfo fcinfo, OptionsCache *cache, ArrayType *list) {
    MemoryContext mcxt = fcinfo->flinfo->fn_mcxt;
    Datum *elements = nullptr;
    bool *nulls = nullptr;
    int count = 0;
    Size bytes = 0;
    if (list == nullptr) {
        count = static_cast<int>(core::kSqidsDefaultBlocklistSize);
        for (std::string_view w : core::kSqidsDefaultBlocklist) bytes += w.size();
    } else {
        deconstruct_array(list, TEXTOID, -1, false, TYPALIGN_INT, &elements, &nulls, &count);
        for (int i = 0; i < count; ++i) {
            if (nulls[i])
                ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                                errmsg("invalid blocklist for sqids: element %d is null", i + 1),
                                errhint("Pass NULL for the default blocklist, or '{}' for none.")));
            bytes += VARSIZE_ANY_EXHDR(DatumGetPointer(elements[i]));
        }
    }
    cache->words = static_cast<core::SqidsWord *>(MemoryContextAlloc(mcxt, sizeof(core::SqidsWord) * (count + 1)));
    cache->lowered = static_cast<char *>(MemoryContextAlloc(mcxt, bytes + 1));
    std::size_t kept = 0;
    char *at = cache->lowered;
    for (int i = 0; i < count; ++i) {
        std::string_view word;
        if (list == nullptr) {
            word = core::kSqidsDefaultBlocklist[i];
        } else {
            text *t = reinterpret_cast<text *>(DatumGetPointer(elements[i]));
            word = std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
        }
        if (!core::sqids_keep_word(cache->sqids, word, at)) continue;
        cache->words[kept++] = core::sqids_word(std::string_view(at, word.size()));
        at += word.size();
    }
    cache->sqids.blocklist = cache->words;
    cache->sqids.blocklist_size = kept;
}

// The options of arguments first .. first + 2 (alphabet, min_length,
// blocklist), from the call site's cache when they are the same values. The
// caller has returned NULL for a NULL alphabet or min_length.
const core::Sqids &options_argument(FunctionCallInfo fcinfo, int first) {
    text *alphabet = PG_GETARG_TEXT_PP(first);
    std::int32_t min_length = PG_GETARG_INT32(first + 1);
    ArrayType *list = PG_ARGISNULL(first + 2) ? nullptr : PG_GETARG_ARRAYTYPE_P(first + 2);
    const char *alphabet_text = VARDATA_ANY(alphabet);
    int alphabet_bytes = static_cast<int>(VARSIZE_ANY_EXHDR(alphabet));
    auto *cache = static_cast<OptionsCache *>(fcinfo->flinfo->fn_extra);
    if (cache != nullptr && cache->valid && cache->alphabet_bytes == alphabet_bytes &&
        std::memcmp(cache->alphabet, alphabet_text, alphabet_bytes) == 0 && cache->min_length == min_length &&
        cache->default_list == (list == nullptr) &&
        (list == nullptr ||
         (cache->list_bytes == VARSIZE(list) && std::memcmp(cache->list, list, VARSIZE(list)) == 0)))
        return cache->sqids;
    MemoryContext mcxt = fcinfo->flinfo->fn_mcxt;
    if (cache == nullptr) {
        cache = static_cast<OptionsCache *>(MemoryContextAllocZero(mcxt, sizeof(OptionsCache)));
        fcinfo->flinfo->fn_extra = cache;
    }
    cache->valid = false;
    for (void *old : {static_cast<void *>(cache->list), static_cast<void *>(cache->words),
                      static_cast<void *>(cache->lowered)})
        if (old != nullptr) pfree(old);
    cache->list = nullptr;
    cache->words = nullptr;
    cache->lowered = nullptr;
    parse_alphabet(alphabet_text, alphabet_bytes, cache->sqids);
    if (!core::sqids_set_min_length(cache->sqids, min_length))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid min_length for sqids: %d", min_length),
                        errdetail("The minimum length of a Sqids code is 0 to %zu.", core::kSqidsMaxMinLength)));
    parse_blocklist(fcinfo, cache, list);
    if (list != nullptr) {
        cache->list = static_cast<char *>(MemoryContextAlloc(mcxt, VARSIZE(list)));
        std::memcpy(cache->list, list, VARSIZE(list));
        cache->list_bytes = VARSIZE(list);
    }
    std::memcpy(cache->alphabet, alphabet_text, alphabet_bytes);
    cache->alphabet_bytes = alphabet_bytes;
    cache->min_length = min_length;
    cache->default_list = list == nullptr;
    cache->valid = true;
    return cache->sqids;
}

void refuse_number(std::int64_t value, int element) {
    if (element > 0)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("sqids cannot encode negative number %lld", static_cast<long long>(value)),
                        errdetail("Element %d of the array is negative; Sqids encodes numbers from 0 to %llu.",
                                  element, static_cast<unsigned long long>(core::kSqidsMaxValue))));
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                    errmsg("sqids cannot encode negative number %lld", static_cast<long long>(value)),
                    errdetail("Sqids encodes numbers from 0 to %llu.",
                              static_cast<unsigned long long>(core::kSqidsMaxValue))));
}

// The code of count numbers, or an error (the numbers are checked already).
text *encode(const core::Sqids &sqids, const std::uint64_t *numbers, std::size_t count) {
    std::size_t capacity = core::sqids_encoded_capacity(count, sqids.min_length);
    text *result = static_cast<text *>(palloc(VARHDRSZ + capacity));
    core::SqidsEncodeResult r = core::sqids_encode(sqids, numbers, count, VARDATA(result), capacity);
    if (r.status == core::SqidsEncodeStatus::exhausted)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("sqids cannot encode these numbers: every attempt holds a blocked word"),
                        errdetail("The codes of increments 0 to %d each contain a word of the blocklist.",
                                  static_cast<int>(sqids.length)),
                        errhint("Use a longer alphabet, a smaller min_length or a shorter blocklist.")));
    if (r.status != core::SqidsEncodeStatus::ok) elog(ERROR, "sqids encoding failed with status %d", static_cast<int>(r.status));
    SET_VARSIZE(result, VARHDRSZ + r.length);
    return result;
}

enum class Decoding { lenient, strict };

struct Decoded {
    std::uint64_t *numbers;
    std::size_t count;
};

// The numbers of a code; strict: refused unless the code is exactly the one
// they encode to (which also refuses what the lenient form reads as none).
Decoded decode(const core::Sqids &sqids, text *code, Decoding mode) {
    std::string_view id(VARDATA_ANY(code), VARSIZE_ANY_EXHDR(code));
    std::size_t capacity = core::sqids_decoded_capacity(id.size());
    auto *numbers = static_cast<std::uint64_t *>(palloc(sizeof(std::uint64_t) * capacity));
    core::SqidsDecodeResult r = core::sqids_decode(sqids, id, numbers, capacity);
    if (r.status == core::SqidsDecodeStatus::overflow)
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("sqids code \"%.*s\" is out of range for type bigint", static_cast<int>(id.size()),
                               id.data()),
                        errdetail("Its number %zu is above %llu.", r.count + 1,
                                  static_cast<unsigned long long>(core::kSqidsMaxValue))));
    if (r.status != core::SqidsDecodeStatus::ok) elog(ERROR, "sqids decoding failed with status %d", static_cast<int>(r.status));
    if (mode == Decoding::lenient) return {numbers, r.count};
    const int shown = static_cast<int>(id.size());
    if (id.empty())
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg("invalid input syntax for sqids: \"\""),
                        errdetail("An empty code holds no numbers."),
                        errhint("sqids_decode_lenient returns an empty array for it.")));
    for (std::size_t k = 0; k < id.size(); ++k)
        if (sqids.position[static_cast<unsigned char>(id[k])] < 0)
            ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                            errmsg("invalid input syntax for sqids: \"%.*s\"", shown, id.data()),
                            errdetail("The byte at position %zu is not a character of the alphabet.", k + 1)));
    if (r.count == 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid input syntax for sqids: \"%.*s\"", shown, id.data()),
                        errdetail("The code holds no numbers.")));
    std::size_t again_capacity = core::sqids_encoded_capacity(r.count, sqids.min_length);
    char *again = static_cast<char *>(palloc(again_capacity));
    core::SqidsEncodeResult e = core::sqids_encode(sqids, numbers, r.count, again, again_capacity);
    if (e.status != core::SqidsEncodeStatus::ok)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid input syntax for sqids: \"%.*s\"", shown, id.data()),
                        errdetail("Its numbers have no code under this blocklist.")));
    if (e.length != id.size() || std::memcmp(again, id.data(), id.size()) != 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid input syntax for sqids: \"%.*s\"", shown, id.data()),
                        errdetail("The code of the numbers it decodes to is \"%.*s\".", static_cast<int>(e.length),
                                  again),
                        errhint("sqids_decode_lenient reads a code that is not canonical.")));
    pfree(again);
    return {numbers, r.count};
}

ArrayType *bigint_array(const Decoded &d) {
    if (d.count == 0) return construct_empty_array(INT8OID);
    auto *elements = static_cast<Datum *>(palloc(sizeof(Datum) * d.count));
    for (std::size_t i = 0; i < d.count; ++i) elements[i] = Int64GetDatum(static_cast<std::int64_t>(d.numbers[i]));
    return construct_array(elements, static_cast<int>(d.count), INT8OID, sizeof(std::int64_t), kInt8ByVal,
                           TYPALIGN_DOUBLE);
}

// NULL numbers, alphabet or min_length give NULL (a NULL blocklist is the default).
bool null_options(FunctionCallInfo fcinfo) { return PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2); }

// The numbers of the code in argument 0 under the options of arguments 1 to 3.
Decoded decoded_argument(FunctionCallInfo fcinfo, Decoding mode) {
    text *code = PG_GETARG_TEXT_PP(0);
    return decode(options_argument(fcinfo, 1), code, mode);
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_sqids_encode);
PG_FUNCTION_INFO_V1(idgen_sqids_encode_one);
PG_FUNCTION_INFO_V1(idgen_sqids_decode);
PG_FUNCTION_INFO_V1(idgen_sqids_decode_one);
PG_FUNCTION_INFO_V1(idgen_sqids_decode_lenient);
PG_FUNCTION_INFO_V1(idgen_sqids_default_blocklist);

// sqids_encode(numbers bigint[], alphabet, min_length, blocklist): the code
// of the numbers, in order; an empty array gives '' (the spec's).
Datum idgen_sqids_encode(PG_FUNCTION_ARGS) {
    if (null_options(fcinfo)) PG_RETURN_NULL();
    ArrayType *array = PG_GETARG_ARRAYTYPE_P(0);
    const idgen::core::Sqids &sqids = options_argument(fcinfo, 1);
    if (ARR_NDIM(array) > 1)
        ereport(ERROR, (errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
                        errmsg("sqids encodes a one-dimensional array, not one of %d dimensions", ARR_NDIM(array))));
    Datum *elements;
    bool *nulls;
    int count;
    deconstruct_array(array, INT8OID, sizeof(std::int64_t), kInt8ByVal, TYPALIGN_DOUBLE, &elements, &nulls, &count);
    auto *numbers = static_cast<std::uint64_t *>(palloc(sizeof(std::uint64_t) * (count + 1)));
    for (int i = 0; i < count; ++i) {
        if (nulls[i])
            ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                            errmsg("sqids cannot encode a null number"),
                            errdetail("Element %d of the array is null.", i + 1)));
        std::int64_t value = DatumGetInt64(elements[i]);
        if (value < 0) refuse_number(value, i + 1);
        numbers[i] = static_cast<std::uint64_t>(value);
    }
    PG_RETURN_TEXT_P(encode(sqids, numbers, static_cast<std::size_t>(count)));
}

// sqids_encode(number bigint, alphabet, min_length, blocklist).
Datum idgen_sqids_encode_one(PG_FUNCTION_ARGS) {
    if (null_options(fcinfo)) PG_RETURN_NULL();
    std::int64_t value = PG_GETARG_INT64(0);
    const idgen::core::Sqids &sqids = options_argument(fcinfo, 1);
    if (value < 0) refuse_number(value, 0);
    std::uint64_t number = static_cast<std::uint64_t>(value);
    PG_RETURN_TEXT_P(encode(sqids, &number, 1));
}

// sqids_decode(code, alphabet, min_length, blocklist): the numbers of a
// canonical code, or an error.
Datum idgen_sqids_decode(PG_FUNCTION_ARGS) {
    if (null_options(fcinfo)) PG_RETURN_NULL();
    PG_RETURN_ARRAYTYPE_P(bigint_array(decoded_argument(fcinfo, Decoding::strict)));
}

// sqids_decode_one(code, ...): the one number of a canonical code.
Datum idgen_sqids_decode_one(PG_FUNCTION_ARGS) {
    if (null_options(fcinfo)) PG_RETURN_NULL();
    text *code = PG_GETARG_TEXT_PP(0);
    Decoded d = decoded_argument(fcinfo, Decoding::strict);
    if (d.count != 1)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                        errmsg("invalid input syntax for sqids: \"%.*s\"", static_cast<int>(VARSIZE_ANY_EXHDR(code)),
                               VARDATA_ANY(code)),
                        errdetail("The code holds %zu numbers; one was expected.", d.count),
                        errhint("sqids_decode returns every number of a code.")));
    PG_RETURN_INT64(static_cast<std::int64_t>(d.numbers[0]));
}

// sqids_decode_lenient(code, ...): the spec's decoding; text that is not a
// code gives an empty array.
Datum idgen_sqids_decode_lenient(PG_FUNCTION_ARGS) {
    if (null_options(fcinfo)) PG_RETURN_NULL();
    PG_RETURN_ARRAYTYPE_P(bigint_array(decoded_argument(fcinfo, Decoding::lenient)));
}

// sqids_default_blocklist(): the spec's 560 words, in its order.
Datum idgen_sqids_default_blocklist(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    auto *words = static_cast<Datum *>(palloc(sizeof(Datum) * idgen::core::kSqidsDefaultBlocklistSize));
    for (std::size_t i = 0; i < idgen::core::kSqidsDefaultBlocklistSize; ++i) {
        std::string_view w = idgen::core::kSqidsDefaultBlocklist[i];
        words[i] = PointerGetDatum(cstring_to_text_with_len(w.data(), static_cast<int>(w.size())));
    }
    PG_RETURN_ARRAYTYPE_P(construct_array(words, static_cast<int>(idgen::core::kSqidsDefaultBlocklistSize), TEXTOID,
                                          -1, false, TYPALIGN_INT));
}

}  // extern "C"
