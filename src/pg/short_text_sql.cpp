// Short text forms of a uuid or a ulid (core/short_text.hpp): uuid_encode(),
// uuid_decode(), ulid_encode() and ulid_decode(). Both types are the 16 bytes
// of the value, most significant first, so one pair of bodies serves both.
#include <cstring>

#include "core/short_text.hpp"
#include "pg/state.hpp"

namespace idgen::pg {
namespace {

using core::ShortTextDecoded;
using core::ShortTextForm;
using core::ShortTextStatus;

// "base62, base58, flickr, base57, base64url and base32", from the core's list.
const char *form_list() {
    static char list[128];
    if (list[0] == '\0') {
        std::size_t at = 0;
        for (std::size_t f = 0; f < core::kShortTextFormCount; ++f) {
            const char *sep = f == 0 ? "" : (f + 1 == core::kShortTextFormCount ? " and " : ", ");
            at += static_cast<std::size_t>(
                snprintf(list + at, sizeof list - at, "%s%s", sep, core::kShortTextFormNames[f]));
        }
    }
    return list;
}

// The form a text argument names, in either case; 22023 otherwise.
ShortTextForm form_argument(text *name) {
    std::string_view view(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
    std::optional<ShortTextForm> form = core::short_text_form_named(view);
    if (!form)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("unknown short text form: \"%s\"", text_to_cstring(name)),
                        errhint("The forms are %s.", form_list())));
    return *form;
}

Datum encode_16(const std::uint8_t *bytes, text *form_name) {
    ShortTextForm form = form_argument(form_name);
    char out[core::kShortTextMaxLength];
    std::size_t n = core::short_text_encode(form, core::load_be128(bytes), out);
    return PointerGetDatum(cstring_to_text_with_len(out, static_cast<int>(n)));
}

// The refusal of text as the form's text of a type_name value: 22P02, with a
// detail that names the form and what was wrong.
void report_bad_text(const char *type_name, ShortTextForm form, text *input, const ShortTextDecoded &decoded) {
    const char *name = core::short_text_form_name(form);
    const char *alphabet = core::short_text_alphabet(form);
    std::size_t length = core::short_text_length(form);
    char *shown = text_to_cstring(input);
    switch (decoded.status) {
        case ShortTextStatus::wrong_length:
            ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                            errmsg("invalid %s text for type %s: \"%s\"", name, type_name, shown),
                            errdetail("A %s in %s is %zu characters long; this text has %zu.", type_name,
                                      name, length, std::strlen(shown))));
            break;
        case ShortTextStatus::too_large: {
            char largest[core::kShortTextMaxLength + 1];
            largest[core::short_text_encode(form, core::kUint128Max, largest)] = '\0';
            ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                            errmsg("invalid %s text for type %s: \"%s\"", name, type_name, shown),
                            errdetail("The value is above 2^128 - 1, which is %s in %s.", largest, name)));
            break;
        }
        case ShortTextStatus::trailing_bits:
            ereport(ERROR,
                    (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                     errmsg("invalid %s text for type %s: \"%s\"", name, type_name, shown),
                     errdetail("The last character of base64url text holds the last 2 bits and 4 zero "
                               "bits, so it is one of %c, %c, %c or %c; \"%c\" sets the zero bits.",
                               alphabet[0], alphabet[16], alphabet[32], alphabet[48],
                               shown[decoded.position])));
            break;
        default: {
            const char *bad = shown + decoded.position;
            auto first_byte = static_cast<unsigned char>(*bad);
            int position = pg_mbstrlen_with_len(shown, static_cast<int>(decoded.position)) + 1;
            bool control = first_byte < 0x20 || first_byte == 0x7F;
            ereport(ERROR,
                    (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                     errmsg("invalid %s text for type %s: \"%s\"", name, type_name, shown),
                     control ? errdetail("Control character 0x%02X at position %d is not a %s digit.",
                                         first_byte, position, name)
                             : errdetail("Character \"%.*s\" at position %d is not a %s digit.",
                                         pg_mblen(bad), bad, position, name),
                     form == ShortTextForm::base32
                         ? errhint("The %s digits are %s, in either case.", name, alphabet)
                         : errhint("The %s digits are %s.", name, alphabet)));
        }
    }
}

Datum decode_16(const char *type_name, text *input, text *form_name) {
    ShortTextForm form = form_argument(form_name);
    std::string_view view(VARDATA_ANY(input), VARSIZE_ANY_EXHDR(input));
    ShortTextDecoded decoded = core::short_text_decode(form, view);
    if (decoded.status != ShortTextStatus::ok) report_bad_text(type_name, form, input, decoded);
    auto *bytes = static_cast<std::uint8_t *>(palloc(core::kUint128Bytes));
    core::store_be128(decoded.value, bytes);
    return PointerGetDatum(bytes);
}

}  // namespace
}  // namespace idgen::pg

using namespace idgen::pg;

extern "C" {

PG_FUNCTION_INFO_V1(idgen_uuid_encode);
PG_FUNCTION_INFO_V1(idgen_uuid_decode);
PG_FUNCTION_INFO_V1(idgen_ulid_encode);
PG_FUNCTION_INFO_V1(idgen_ulid_decode);

// uuid_encode(uuid, form): the form's text of the uuid.
Datum idgen_uuid_encode(PG_FUNCTION_ARGS) {
    return encode_16(PG_GETARG_UUID_P(0)->data, PG_GETARG_TEXT_PP(1));
}

// uuid_decode(text, form): the uuid of the form's text, strictly.
Datum idgen_uuid_decode(PG_FUNCTION_ARGS) {
    return decode_16("uuid", PG_GETARG_TEXT_PP(0), PG_GETARG_TEXT_PP(1));
}

// ulid_encode(ulid, form): the same texts of the ulid's 128 bits.
Datum idgen_ulid_encode(PG_FUNCTION_ARGS) {
    return encode_16(reinterpret_cast<const std::uint8_t *>(PG_GETARG_POINTER(0)), PG_GETARG_TEXT_PP(1));
}

// ulid_decode(text, form): the ulid of the form's text, strictly.
Datum idgen_ulid_decode(PG_FUNCTION_ARGS) {
    return decode_16("ulid", PG_GETARG_TEXT_PP(0), PG_GETARG_TEXT_PP(1));
}

}  // extern "C"
