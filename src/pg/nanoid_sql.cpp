// NanoID (core/nanoid.hpp): nanoid(size, alphabet) and nanoid_is_valid(id,
// size, alphabet). An alphabet is read as characters of the database
// encoding (pg_mblen), so multibyte characters are allowed; the parsed
// alphabet is kept in fn_extra for the next call of the same call site with
// the same alphabet text.
#include <cstring>

#include "core/nanoid.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

struct AlphabetCache {
    int text_bytes;  // -1: empty
    char text[core::kNanoidMaxAlphabetBytes];
    core::NanoidAlphabet alphabet;
};

int size_argument(std::int32_t size) {
    if (size < static_cast<std::int32_t>(core::kNanoidMinSize) ||
        size > static_cast<std::int32_t>(core::kNanoidMaxSize))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("invalid size for nanoid: %d", size),
                        errdetail("A NanoID has %zu to %zu characters.", core::kNanoidMinSize,
                                  core::kNanoidMaxSize)));
    return size;
}

// The character at a 0-based position of the alphabet text, for messages.
const char *character_at(const char *text, int bytes, std::size_t position, int *length) {
    const char *at = text;
    for (std::size_t i = 0; i < position && at < text + bytes; ++i) at += pg_mblen(at);
    *length = pg_mblen(at);
    return at;
}

void parse_alphabet(const char *text, int bytes, core::NanoidAlphabet &alphabet) {
    core::nanoid_alphabet_start(alphabet);
    for (const char *at = text; at < text + bytes;) {
        int length = pg_mblen(at);
        core::NanoidAlphabetStatus status =
            core::nanoid_alphabet_add(alphabet, std::string_view(at, static_cast<std::size_t>(length)));
        if (status == core::NanoidAlphabetStatus::too_many)
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid alphabet for nanoid: more than %zu characters",
                                   core::kNanoidMaxAlphabet),
                            errdetail("The alphabet has %d characters; a NanoID alphabet has %zu to %zu "
                                      "distinct characters.",
                                      pg_mbstrlen_with_len(text, bytes), core::kNanoidMinAlphabet,
                                      core::kNanoidMaxAlphabet)));
        if (status != core::NanoidAlphabetStatus::ok)
            elog(ERROR, "nanoid alphabet character of %d bytes", length);  // no server encoding has one
        at += length;
    }
    core::NanoidAlphabetCheck check = core::nanoid_alphabet_finish(alphabet);
    switch (check.status) {
        case core::NanoidAlphabetStatus::ok: return;
        case core::NanoidAlphabetStatus::too_few:
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid alphabet for nanoid: fewer than %zu characters",
                                   core::kNanoidMinAlphabet),
                            errdetail_plural("The alphabet has %d character; a NanoID alphabet has %zu to "
                                             "%zu distinct characters.",
                                             "The alphabet has %d characters; a NanoID alphabet has %zu to "
                                             "%zu distinct characters.",
                                             alphabet.count, static_cast<int>(alphabet.count),
                                             core::kNanoidMinAlphabet, core::kNanoidMaxAlphabet)));
            break;
        case core::NanoidAlphabetStatus::repeated: {
            int length = 0;
            const char *repeated = character_at(text, bytes, check.first, &length);
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("invalid alphabet for nanoid: \"%.*s\" appears more than once", length,
                                   repeated),
                            errdetail("Character \"%.*s\" is at positions %zu and %zu; each character of "
                                      "the alphabet must be distinct, or the IDs would not be uniform.",
                                      length, repeated, check.first + 1, check.second + 1)));
            break;
        }
        default: elog(ERROR, "nanoid alphabet character is a prefix of another");  // as above
    }
}

// The parsed alphabet of a text argument, from the call site's cache when it
// is the same text.
const core::NanoidAlphabet &alphabet_argument(FunctionCallInfo fcinfo, text *argument) {
    const char *bytes = VARDATA_ANY(argument);
    int length = static_cast<int>(VARSIZE_ANY_EXHDR(argument));
    auto *cache = static_cast<AlphabetCache *>(fcinfo->flinfo->fn_extra);
    if (cache != nullptr && cache->text_bytes == length && std::memcmp(cache->text, bytes, length) == 0)
        return cache->alphabet;
    if (cache == nullptr) {
        cache = static_cast<AlphabetCache *>(MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(AlphabetCache)));
        fcinfo->flinfo->fn_extra = cache;
    }
    cache->text_bytes = -1;
    parse_alphabet(bytes, length, cache->alphabet);  // more than kNanoidMaxAlphabetBytes: too many
    std::memcpy(cache->text, bytes, length);
    cache->text_bytes = length;
    return cache->alphabet;
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_nanoid);
PG_FUNCTION_INFO_V1(idgen_nanoid_is_valid);

// nanoid(size, alphabet): size characters, each uniform over the alphabet.
Datum idgen_nanoid(PG_FUNCTION_ARGS) {
    int size = size_argument(PG_GETARG_INT32(0));
    const idgen::core::NanoidAlphabet &alphabet = alphabet_argument(fcinfo, PG_GETARG_TEXT_PP(1));
    text *result = static_cast<text *>(palloc(VARHDRSZ + size * idgen::core::kNanoidMaxCharacterBytes));
    idgen::core::NanoidProgress progress{0, 0};
    std::uint8_t random[512];
    while (progress.characters < static_cast<std::size_t>(size)) {
        std::size_t want = idgen::core::nanoid_expected_bytes(alphabet, size - progress.characters);
        if (want > sizeof random) want = sizeof random;
        random_bytes(random, want);
        idgen::core::nanoid_fill(alphabet, random, want, VARDATA(result), size, progress);
    }
    explicit_bzero(random, sizeof random);
    SET_VARSIZE(result, VARHDRSZ + progress.bytes);
    PG_RETURN_TEXT_P(result);
}

// nanoid_is_valid(id, size, alphabet): whether id is size characters of the
// alphabet; the size and the alphabet are checked as nanoid() checks them.
Datum idgen_nanoid_is_valid(PG_FUNCTION_ARGS) {
    text *id = PG_GETARG_TEXT_PP(0);
    int size = size_argument(PG_GETARG_INT32(1));
    const idgen::core::NanoidAlphabet &alphabet = alphabet_argument(fcinfo, PG_GETARG_TEXT_PP(2));
    std::string_view view(VARDATA_ANY(id), VARSIZE_ANY_EXHDR(id));
    PG_RETURN_BOOL(idgen::core::nanoid_valid(alphabet, view, static_cast<std::size_t>(size)));
}

}  // extern "C"
