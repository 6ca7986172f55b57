// Firebase push IDs (core/push_id.hpp): push_id(), push_id_time() and
// push_id_is_valid(), on text.
#include "core/push_id.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::Uint128;

// This session's last push ID, as timeflake_sql.cpp keeps its Timeflake:
// per backend, zeroed, no shared memory (PARALLEL RESTRICTED).
core::PushIdSequence session_sequence;

// The 22P02 of text that is not a push ID. A length is only reported for text
// made of the alphabet, where bytes are characters; positions count characters
// in the database encoding.
void report_bad_push_id(text *argument, const core::PushIdDecoded &decoded) {
    int length = static_cast<int>(VARSIZE_ANY_EXHDR(argument));
    const char *shown = text_to_cstring(argument);  // the same bytes, terminated
    const char *message = "invalid input syntax for push ID: \"%s\"";
    if (decoded.status == core::PushIdStatus::wrong_length)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(message, shown),
                        errdetail("A push ID is %zu characters long; this value has %d.", core::kPushIdLength,
                                  length)));
    const char *bad = shown + decoded.position;
    auto first_byte = static_cast<unsigned char>(*bad);
    int position = pg_mbstrlen_with_len(shown, static_cast<int>(decoded.position)) + 1;
    bool control = first_byte < 0x20 || first_byte == 0x7F;
    ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg(message, shown),
                    control ? errdetail("Control character 0x%02X at position %d is not one of a push ID's "
                                        "characters.",
                                        first_byte, position)
                            : errdetail("Character \"%.*s\" at position %d is not one of a push ID's "
                                        "characters.",
                                        pg_mblen(bad), bad, position),
                    errhint("A push ID is 20 characters of -, 0-9, A-Z, _ and a-z.")));
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;
namespace core = idgen::core;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_push_id);
PG_FUNCTION_INFO_V1(idgen_push_id_time);
PG_FUNCTION_INFO_V1(idgen_push_id_is_valid);

// push_id(): strictly above this session's previous one in text order (the
// same millisecond, or a clock set back: the previous + 1, with carry).
Datum idgen_push_id(PG_FUNCTION_ARGS) {
    (void)fcinfo;
    std::int64_t now_ms = clock_unix_ms48("push ID");
    Uint128 random = core::push_id_needs_random(session_sequence, now_ms)
                         ? random_low_bytes128(core::kPushIdRandomBytes)
                         : 0;
    core::PushIdIssue issue = core::push_id_issue(session_sequence, now_ms, random);
    if (unlikely(issue.step != core::PushIdStep::issue))
        ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE), errmsg("push ID values are exhausted"),
                        errdetail("This session's last push ID is the largest, zzzzzzzzzzzzzzzzzzzz.")));
    text *result = static_cast<text *>(palloc(VARHDRSZ + core::kPushIdLength));
    SET_VARSIZE(result, VARHDRSZ + core::kPushIdLength);
    core::push_id_encode(issue.id, VARDATA(result));
    PG_RETURN_TEXT_P(result);
}

// push_id_time(id): the millisecond of its first 8 characters; 22P02 for
// anything but 20 characters of the alphabet.
Datum idgen_push_id_time(PG_FUNCTION_ARGS) {
    text *argument = PG_GETARG_TEXT_PP(0);
    core::PushIdDecoded decoded =
        core::push_id_decode(std::string_view(VARDATA_ANY(argument), VARSIZE_ANY_EXHDR(argument)));
    if (decoded.status != core::PushIdStatus::ok) report_bad_push_id(argument, decoded);
    PG_RETURN_TIMESTAMPTZ(core::push_id_unix_ms(decoded.id) * kUsPerMs - kUnixToPgEpochUs);
}

// push_id_is_valid(id): whether id is exactly 20 characters of the alphabet.
Datum idgen_push_id_is_valid(PG_FUNCTION_ARGS) {
    text *argument = PG_GETARG_TEXT_PP(0);
    PG_RETURN_BOOL(core::push_id_valid(std::string_view(VARDATA_ANY(argument), VARSIZE_ANY_EXHDR(argument))));
}

}  // extern "C"
