// The cores' answer to one case of test/data/id_vectors.json: what
// test/unit/vectors_probe.cpp prints for sql/edition/vectors.py to record,
// and what test/unit/vectors_test.cpp sets against the recorded file. One
// function for both, so that the file holds exactly what the cores answer.
//
// A case is an operation (family and form, such as "ulid.text") and its
// inputs as strings (text as its bytes, bits and binary forms as hex,
// integers in decimal); the answer is a list of fields in a fixed order.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base32.hpp"
#include "core/base36.hpp"
#include "core/ksuid.hpp"
#include "core/objectid.hpp"
#include "core/prefixed.hpp"
#include "core/snowflake.hpp"
#include "core/snowflake_layout.hpp"
#include "core/typeid.hpp"
#include "core/uint128.hpp"
#include "core/ulid.hpp"
#include "core/uuidv7.hpp"
#include "core/xid.hpp"

namespace idgen::test {

// A field's value as JSON writes it: a string, a number, true/false or null.
struct AnswerValue {
    enum Kind { string, number, boolean, null } kind;
    std::string text;  // the string, the number's digits, "true"/"false", "null"
    bool operator==(const AnswerValue &other) const {
        return kind == other.kind && text == other.text;
    }
};
using Answer = std::vector<std::pair<std::string, AnswerValue>>;

inline AnswerValue str(std::string s) { return {AnswerValue::string, std::move(s)}; }
inline AnswerValue num(long long n) { return {AnswerValue::number, std::to_string(n)}; }
inline AnswerValue boolean(bool b) { return {AnswerValue::boolean, b ? "true" : "false"}; }
inline AnswerValue null() { return {AnswerValue::null, "null"}; }

inline std::string hex_of(const std::uint8_t *bytes, std::size_t size) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < size; ++i) {
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

inline std::string hex128(core::Uint128 value) {
    std::uint8_t bytes[16];
    core::store_be128(value, bytes);
    return hex_of(bytes, 16);
}

// The bytes of hex digits; false for anything else.
inline bool bytes_of_hex(std::string_view hex, std::string &out) {
    auto nibble = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    if (hex.size() % 2) return false;
    out.clear();
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
        if (hi < 0 || lo < 0) return false;
        out += static_cast<char>(hi * 16 + lo);
    }
    return true;
}

inline const char *name_of(core::Base32Status s) {
    switch (s) {
        case core::Base32Status::ok: return "ok";
        case core::Base32Status::wrong_length: return "wrong_length";
        case core::Base32Status::bad_digit: return "bad_digit";
        case core::Base32Status::too_large: return "too_large";
    }
    return "?";
}
inline const char *name_of(core::Base36Status s) {
    switch (s) {
        case core::Base36Status::ok: return "ok";
        case core::Base36Status::wrong_length: return "wrong_length";
        case core::Base36Status::bad_digit: return "bad_digit";
        case core::Base36Status::too_large: return "too_large";
    }
    return "?";
}
inline const char *name_of(core::PrefixStatus s) {
    switch (s) {
        case core::PrefixStatus::ok: return "ok";
        case core::PrefixStatus::empty: return "empty";
        case core::PrefixStatus::too_long: return "too_long";
        case core::PrefixStatus::bad_character: return "bad_character";
        case core::PrefixStatus::starts_or_ends_with_underscore: return "starts_or_ends_with_underscore";
    }
    return "?";
}
inline const char *name_of(core::TypeidStatus s) {
    switch (s) {
        case core::TypeidStatus::ok: return "ok";
        case core::TypeidStatus::empty_prefix_with_separator: return "empty_prefix_with_separator";
        case core::TypeidStatus::bad_prefix: return "bad_prefix";
        case core::TypeidStatus::bad_suffix: return "bad_suffix";
        case core::TypeidStatus::missing_separator: return "missing_separator";
        case core::TypeidStatus::prefixed_id_text: return "prefixed_id_text";
    }
    return "?";
}
inline const char *name_of(core::WireStatus s) {
    switch (s) {
        case core::WireStatus::ok: return "ok";
        case core::WireStatus::empty: return "empty";
        case core::WireStatus::bad_length_byte: return "bad_length_byte";
        case core::WireStatus::short_field: return "short_field";
        case core::WireStatus::trailing_bytes: return "trailing_bytes";
        case core::WireStatus::bad_prefix: return "bad_prefix";
    }
    return "?";
}

// A refusal: the status, the sub-status where one explains it, and the byte
// offset of the offending character where the core gives one.
inline Answer refused(const char *reason, const char *cause = nullptr, long long position = -1) {
    Answer a{{"ok", boolean(false)}, {"reason", str(reason)}};
    if (cause) a.push_back({"cause", str(cause)});
    if (position >= 0) a.push_back({"position", num(position)});
    return a;
}

inline std::string ulid_text(core::Uint128 value) {
    char out[core::kBase32Digits128];
    core::base32_encode128(value, out);
    return std::string(out, sizeof out);
}

inline std::string typeid_text(std::string_view prefix, const std::uint8_t payload[16]) {
    char out[core::kTypeidMaxChars];
    return std::string(out, core::typeid_encode(prefix, payload, out));
}

inline std::string prefixed_text(std::string_view prefix, core::Uint128 value) {
    char body[core::kBase36Digits128];
    core::base36_encode128(value, body);
    return std::string(prefix) + "_" + std::string(body, sizeof body);
}

inline std::string wire_hex(std::string_view prefix, const std::uint8_t payload[16], bool empty_prefix) {
    std::uint8_t out[core::kPrefixedWireMaxBytes];
    return hex_of(out, core::prefixed_wire_encode(prefix, payload, out, empty_prefix));
}

// The time of 16 bytes as uuid_v7_time() reads it: null unless version 7, variant 10.
inline AnswerValue v7_ms(const std::uint8_t bits[16]) {
    auto ms = core::uuidv7_unix_ms(bits);
    return ms ? num(*ms) : null();
}

inline bool parse_int(std::string_view text, long long &out) {
    if (text.empty() || text.size() > 20) return false;
    std::size_t used = 0;
    try {
        out = std::stoll(std::string(text), &used);
    } catch (...) {
        return false;
    }
    return used == text.size();
}

inline Answer answer_snowflake_id(core::SnowflakeLayout layout, long long id) {
    if (!core::snowflake_id_valid(layout, id)) return refused("out_of_range");
    return {{"ok", boolean(true)},
            {"ms", num(core::snowflake_id_ms(layout, id))},
            {"shard", num(core::snowflake_id_shard(layout, id))},
            {"seq", num(core::snowflake_id_seq(layout, id))}};
}

// The answer of op to inputs; {{"error", ...}} for an op or input that is not one.
inline const char *name_of(core::KsuidStatus s) {
    switch (s) {
        case core::KsuidStatus::ok: return "ok";
        case core::KsuidStatus::wrong_length: return "wrong_length";
        case core::KsuidStatus::bad_character: return "bad_character";
        case core::KsuidStatus::too_large: return "too_large";
    }
    return "?";
}

inline const char *name_of(core::ObjectIdStatus s) {
    switch (s) {
        case core::ObjectIdStatus::ok: return "ok";
        case core::ObjectIdStatus::wrong_length: return "wrong_length";
        case core::ObjectIdStatus::bad_character: return "bad_character";
    }
    return "?";
}

inline const char *name_of(core::XidStatus s) {
    switch (s) {
        case core::XidStatus::ok: return "ok";
        case core::XidStatus::wrong_length: return "wrong_length";
        case core::XidStatus::bad_character: return "bad_character";
        case core::XidStatus::bad_last_character: return "bad_last_character";
    }
    return "?";
}

// An answer without its bits: for the forms whose input they are.
inline Answer without_bits(Answer answer) {
    for (auto it = answer.begin(); it != answer.end(); ++it)
        if (it->first == "bits") {
            answer.erase(it);
            break;
        }
    return answer;
}

// A KSUID's fields: its 20 bytes, its text, its second and its payload.
inline Answer answer_ksuid(core::Ksuid id) {
    std::uint8_t raw[core::kKsuidBytes];
    char text[core::kKsuidTextLength];
    core::ksuid_store(id, raw);
    core::ksuid_encode(id, text);
    return {{"ok", boolean(true)},
            {"bits", str(hex_of(raw, core::kKsuidBytes))},
            {"canonical", str(std::string(text, core::kKsuidTextLength))},
            {"unix_s", num(core::ksuid_unix_seconds(id))},
            {"payload", str(hex_of(raw + core::kKsuidTimestampBytes, core::kKsuidPayloadBytes))}};
}

inline Answer answer_objectid(const std::uint8_t *id) {
    char text[core::kObjectIdTextLength];
    core::objectid_encode(id, text);
    return {{"ok", boolean(true)},
            {"bits", str(hex_of(id, core::kObjectIdBytes))},
            {"canonical", str(std::string(text, core::kObjectIdTextLength))},
            {"unix_s", num(core::load_be32(id))},
            {"process", str(hex_of(id + core::kObjectIdProcessOffset, core::kObjectIdProcessBytes))},
            {"counter", num(core::load_be24(id + core::kObjectIdProcessOffset + core::kObjectIdProcessBytes))}};
}

inline Answer answer_xid(const std::uint8_t *id) {
    char text[core::kXidTextLength];
    core::xid_encode(id, text);
    return {{"ok", boolean(true)},
            {"bits", str(hex_of(id, core::kXidBytes))},
            {"canonical", str(std::string(text, core::kXidTextLength))},
            {"unix_s", num(core::load_be32(id))},
            {"machine", str(hex_of(id + core::kXidMachineOffset, core::kXidMachineBytes))},
            {"pid", num(core::xid_pid(id))},
            {"counter", num(core::load_be24(id + core::kXidPidOffset + 2))}};
}

inline const char *name_of(core::LayoutError e) {
    switch (e) {
        case core::LayoutError::none: return "none";
        case core::LayoutError::too_many_fields: return "too_many_fields";
        case core::LayoutError::bad_width: return "bad_width";
        case core::LayoutError::too_wide: return "too_wide";
        case core::LayoutError::no_time: return "no_time";
        case core::LayoutError::two_times: return "two_times";
        case core::LayoutError::no_sequence: return "no_sequence";
        case core::LayoutError::two_sequences: return "two_sequences";
        case core::LayoutError::bad_name: return "bad_name";
        case core::LayoutError::duplicate_name: return "duplicate_name";
        case core::LayoutError::reserved_name: return "reserved_name";
        case core::LayoutError::bad_unit: return "bad_unit";
        case core::LayoutError::bad_epoch: return "bad_epoch";
        case core::LayoutError::outlasts_year_9999: return "outlasts_year_9999";
    }
    return "?";
}

inline const char *name_of(core::LayoutIdError e) {
    switch (e) {
        case core::LayoutIdError::none: return "none";
        case core::LayoutIdError::negative: return "negative";
        case core::LayoutIdError::above_layout: return "above_layout";
        case core::LayoutIdError::field_range: return "field_range";
        case core::LayoutIdError::before_epoch: return "before_epoch";
        case core::LayoutIdError::after_end: return "after_end";
    }
    return "?";
}

// "name:bits,name:bits" (or "name:value,...") split into pairs; false when a
// part has no colon or a number that is not one.
inline bool name_numbers(std::string_view text, std::vector<std::pair<std::string, long long>> &out) {
    out.clear();
    while (!text.empty()) {
        std::size_t comma = text.find(',');
        std::string_view part = text.substr(0, comma);
        std::size_t colon = part.rfind(':');
        long long n = 0;
        if (colon == std::string_view::npos || !parse_int(part.substr(colon + 1), n)) return false;
        out.emplace_back(std::string(part.substr(0, colon)), n);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    }
    return true;
}

// A layout's fields as "name:bits,...", most significant first.
inline std::string layout_fields_text(const core::Layout &l) {
    std::string out;
    for (int i = 0; i < l.field_count; ++i)
        out += (i ? "," : "") + std::string(l.fields[i].name) + ":" + std::to_string(l.fields[i].bits);
    return out;
}

// A layout from epoch, unit and "name:bits,...", the fields' kinds by name as
// snowflake_layout_define gives them (src/pg/snowflake_layout_sql.cpp), and
// the core's verdict on it; allow_64 for a predefined layout (discord).
inline core::LayoutError layout_from(long long epoch_ms, long long unit_ms, std::string_view fields, bool allow_64,
                                     core::Layout &l, bool &readable) {
    std::vector<std::pair<std::string, long long>> parts;
    l = core::Layout{};
    readable = name_numbers(fields, parts);
    if (!readable) return core::LayoutError::none;
    if (parts.size() > static_cast<std::size_t>(core::kLayoutMaxFields)) return core::LayoutError::too_many_fields;
    l.epoch_ms = epoch_ms;
    l.unit_ms = unit_ms;
    l.field_count = static_cast<int>(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto &[name, bits] = parts[i];
        if (name.size() > core::kLayoutMaxName) return core::LayoutError::bad_name;
        if (bits < 1 || bits > 63) return core::LayoutError::bad_width;
        name.copy(l.fields[i].name, name.size());
        l.fields[i].bits = static_cast<std::uint8_t>(bits);
        l.fields[i].kind = name == "time" ? core::LayoutFieldKind::time
                           : name == "sequence" ? core::LayoutFieldKind::sequence
                                                : core::LayoutFieldKind::node;
    }
    return core::layout_validate(l, allow_64);
}

// The layout of a case: sql/edition/vectors.py and test/unit/vectors_test.cpp
// pass the file's layout as "epoch_ms/unit_ms/name:bits,.../allow_64 (0 or 1)".
inline bool layout_of_spec(std::string_view spec, core::Layout &l) {
    std::string_view part[4];
    for (int i = 0; i < 4; ++i) {
        std::size_t slash = i < 3 ? spec.find('/') : spec.size();
        if (slash == std::string_view::npos) return false;
        part[i] = spec.substr(0, slash);
        spec = i < 3 ? spec.substr(slash + 1) : std::string_view();
    }
    long long epoch = 0, unit = 0;
    bool readable = false;
    return parse_int(part[0], epoch) && parse_int(part[1], unit) && (part[3] == "0" || part[3] == "1") &&
           layout_from(epoch, unit, part[2], part[3] == "1", l, readable) == core::LayoutError::none && readable;
}

inline Answer answer_snowflake_layout(std::string_view form, const std::vector<std::string> &in) {
    auto bad = [](const char *why) { return Answer{{"error", str(why)}}; };
    long long a = 0, b = 0;
    if (form == "predefined" && in.size() == 2) {
        // a predefined layout; instagram's epoch is the caller's (idgen.snowflake_epoch)
        if (!parse_int(in[1], a)) return bad("the instagram epoch is decimal Unix ms");
        std::optional<core::Layout> l = core::predefined_layout(in[0], a);
        if (!l) return refused("unknown_layout");
        return {{"ok", boolean(true)},
                {"epoch_unix_ms", num(l->epoch_ms)},
                {"time_unit_ms", num(l->unit_ms)},
                {"fields", str(layout_fields_text(*l))},
                {"total_bits", num(core::layout_total_bits(*l))},
                {"end_unix_ms", num(core::layout_end_ms(*l))}};
    }
    if (form == "define" && in.size() == 3) {
        // a layout of the user's, as snowflake_layout_check judges it (without `at`)
        if (!parse_int(in[0], a) || !parse_int(in[1], b)) return bad("epoch and unit are decimal ms");
        core::Layout l{};
        bool readable = false;
        core::LayoutError e = layout_from(a, b, in[2], false, l, readable);
        if (!readable) return bad("fields are name:bits,...");
        if (e != core::LayoutError::none) return refused(name_of(e));
        return {{"ok", boolean(true)},
                {"total_bits", num(core::layout_total_bits(l))},
                {"end_unix_ms", num(core::layout_end_ms(l))}};
    }
    core::Layout l{};
    if (in.empty() || !layout_of_spec(in[0], l)) return bad("a layout is epoch/unit/fields/allow_64");
    if (form == "id" && in.size() == 2) {
        // an ID's fields by name, and the Unix ms of its time field
        if (!parse_int(in[1], a)) return bad("an id is a decimal int64");
        core::LayoutValues v{};
        core::LayoutIdError e = core::layout_decompose(l, a, v);
        if (e != core::LayoutIdError::none) return refused(name_of(e));
        Answer out{{"ok", boolean(true)}};
        for (int i = 0; i < l.field_count; ++i) out.push_back({l.fields[i].name, num(v.values[i])});
        out.push_back({"unix_ms", num(core::layout_unix_ms(l, v.values[core::layout_time_index(l)]))});
        return out;
    }
    if (form == "compose" && in.size() == 3) {
        // the ID of the unit holding unix_ms with the named fields ("name:value,...",
        // missing ones 0), as snowflake_layout_compose puts it together
        std::vector<std::pair<std::string, long long>> given;
        if (!parse_int(in[1], a) || !name_numbers(in[2], given)) return bad("unix_ms and name:value,...");
        core::LayoutValues v{};
        core::LayoutIdError e = core::layout_time_value(l, a, v.values[core::layout_time_index(l)]);
        if (e != core::LayoutIdError::none) return refused(name_of(e));
        for (const auto &[name, value] : given) {
            int index = core::layout_find(l, name);
            if (index < 0) return refused("unknown_field", name.c_str());
            if (index == core::layout_time_index(l)) return refused("time_field");
            if (value < 0 || value > core::layout_field_max(l, index)) return refused("field_range", name.c_str());
            v.values[index] = value;
        }
        std::int64_t id = 0;
        int bad_field = 0;
        e = core::layout_compose(l, v, id, bad_field);
        if (e != core::LayoutIdError::none) return refused(name_of(e), l.fields[bad_field].name);
        return {{"ok", boolean(true)}, {"id", str(std::to_string(id))}};
    }
    if (form == "boundary" && in.size() == 2) {
        // the smallest and the largest ID of the unit holding unix_ms
        if (!parse_int(in[1], a)) return bad("unix_ms is decimal");
        std::int64_t smallest = 0, largest = 0;
        core::LayoutIdError e = core::layout_boundary(l, a, false, smallest);
        if (e != core::LayoutIdError::none) return refused(name_of(e));
        core::layout_boundary(l, a, true, largest);
        return {{"ok", boolean(true)},
                {"smallest", str(std::to_string(smallest))},
                {"largest", str(std::to_string(largest))}};
    }
    return bad("unknown operation or inputs");
}

inline Answer vector_answer(std::string_view op, const std::vector<std::string> &in) {
    auto bad = [](const char *why) { return Answer{{"error", str(why)}}; };
    std::string bytes;
    constexpr std::string_view layout_family = "snowflake_layout.";
    if (op.substr(0, layout_family.size()) == layout_family)
        return answer_snowflake_layout(op.substr(layout_family.size()), in);
    if (op == "ulid.text" && in.size() == 1) {
        core::Base32Decoded d = core::base32_decode128(in[0]);
        if (d.status != core::Base32Status::ok)
            return refused(name_of(d.status), nullptr,
                           d.status == core::Base32Status::bad_digit ? static_cast<long long>(d.position) : -1);
        return {{"ok", boolean(true)},
                {"bits", str(hex128(d.value))},
                {"canonical", str(ulid_text(d.value))},
                {"unix_ms", num(core::ulid_unix_ms(d.value))}};
    }
    if (op == "ulid.bits" && in.size() == 1) {
        if (!bytes_of_hex(in[0], bytes) || bytes.size() != 16) return bad("bits are 32 hex digits");
        core::Uint128 v = core::load_be128(reinterpret_cast<const std::uint8_t *>(bytes.data()));
        return {{"text", str(ulid_text(v))}, {"unix_ms", num(core::ulid_unix_ms(v))}};
    }
    if (op == "ksuid.text" && in.size() == 1) {
        core::KsuidDecoded d = core::ksuid_decode(in[0]);
        if (d.status != core::KsuidStatus::ok)
            return refused(name_of(d.status), nullptr,
                           d.status == core::KsuidStatus::bad_character ? static_cast<long long>(d.position) : -1);
        return answer_ksuid(d.value);
    }
    if (op == "ksuid.bits" && in.size() == 1) {
        if (!bytes_of_hex(in[0], bytes) || bytes.size() != core::kKsuidBytes) return bad("bits are 40 hex digits");
        return without_bits(answer_ksuid(core::ksuid_load(reinterpret_cast<const std::uint8_t *>(bytes.data()))));
    }
    if (op == "objectid.text" && in.size() == 1) {
        std::uint8_t id[core::kObjectIdBytes];
        core::ObjectIdDecoded d = core::objectid_decode(in[0], id);
        if (d.status != core::ObjectIdStatus::ok)
            return refused(name_of(d.status), nullptr,
                           d.status == core::ObjectIdStatus::bad_character ? static_cast<long long>(d.position) : -1);
        return answer_objectid(id);
    }
    if (op == "objectid.bits" && in.size() == 1) {
        if (!bytes_of_hex(in[0], bytes) || bytes.size() != core::kObjectIdBytes) return bad("bits are 24 hex digits");
        return without_bits(answer_objectid(reinterpret_cast<const std::uint8_t *>(bytes.data())));
    }
    if (op == "xid.text" && in.size() == 1) {
        std::uint8_t id[core::kXidBytes];
        core::XidDecoded d = core::xid_decode(in[0], id);
        if (d.status != core::XidStatus::ok)
            return refused(name_of(d.status), nullptr,
                           d.status == core::XidStatus::bad_character ? static_cast<long long>(d.position) : -1);
        return answer_xid(id);
    }
    if (op == "xid.bits" && in.size() == 1) {
        if (!bytes_of_hex(in[0], bytes) || bytes.size() != core::kXidBytes) return bad("bits are 24 hex digits");
        return without_bits(answer_xid(reinterpret_cast<const std::uint8_t *>(bytes.data())));
    }
    if (op == "prefix.check" && in.size() == 1) {
        core::PrefixCheck c = core::prefix_check(in[0]);
        if (c.status != core::PrefixStatus::ok)
            return refused(name_of(c.status), nullptr,
                           c.status == core::PrefixStatus::bad_character ? static_cast<long long>(c.position) : -1);
        return {{"ok", boolean(true)}};
    }
    if (op == "prefixed_id.text" && in.size() == 1) {
        // as prefixed_id_in (src/pg/prefixed_sql.cpp) puts the cores together
        core::PrefixedParts parts = core::prefixed_split(in[0]);
        if (!parts.has_separator) return refused("missing_separator");
        core::PrefixCheck c = core::prefix_check(parts.prefix);
        if (c.status != core::PrefixStatus::ok)
            return refused("bad_prefix", name_of(c.status),
                           c.status == core::PrefixStatus::bad_character ? static_cast<long long>(c.position) : -1);
        core::Base36Decoded<core::Uint128> d = core::base36_decode128(parts.body);
        if (d.status != core::Base36Status::ok)
            return refused("bad_body", name_of(d.status),
                           d.status == core::Base36Status::bad_digit ? static_cast<long long>(d.position) : -1);
        std::uint8_t payload[16];
        core::store_be128(d.value, payload);
        return {{"ok", boolean(true)},
                {"prefix", str(std::string(parts.prefix))},
                {"bits", str(hex128(d.value))},
                {"canonical", str(prefixed_text(parts.prefix, d.value))},
                {"binary", str(wire_hex(parts.prefix, payload, false))},
                {"unix_ms", v7_ms(payload)}};
    }
    if (op == "typeid.text" && in.size() == 1) {
        core::TypeidParsed p = core::typeid_parse(in[0]);
        if (p.status == core::TypeidStatus::bad_prefix)
            return refused("bad_prefix", name_of(p.prefix_check.status),
                           p.prefix_check.status == core::PrefixStatus::bad_character
                               ? static_cast<long long>(p.prefix_check.position) : -1);
        if (p.status != core::TypeidStatus::ok) {
            bool digit = p.suffix_decoded.status == core::Base32Status::bad_digit &&
                         p.status == core::TypeidStatus::bad_suffix;
            return refused(name_of(p.status),
                           p.status == core::TypeidStatus::bad_suffix ? name_of(p.suffix_decoded.status) : nullptr,
                           digit ? static_cast<long long>(p.suffix_decoded.position) : -1);
        }
        std::uint8_t payload[16];
        core::store_be128(p.suffix_decoded.value, payload);
        return {{"ok", boolean(true)},
                {"prefix", str(std::string(p.prefix))},
                {"bits", str(hex128(p.suffix_decoded.value))},
                {"canonical", str(typeid_text(p.prefix, payload))},
                {"binary", str(wire_hex(p.prefix, payload, true))},
                {"unix_ms", v7_ms(payload)}};
    }
    if ((op == "prefixed_id.binary" || op == "typeid.binary") && in.size() == 1) {
        if (!bytes_of_hex(in[0], bytes)) return bad("binary forms are hex");
        bool is_typeid = op == "typeid.binary";
        const auto *data = reinterpret_cast<const std::uint8_t *>(bytes.data());
        core::PrefixedWire w = core::prefixed_wire_decode(data, bytes.size(), is_typeid);
        if (w.status != core::WireStatus::ok)
            return refused(name_of(w.status),
                           w.status == core::WireStatus::bad_prefix ? name_of(w.prefix_check.status) : nullptr);
        core::Uint128 v = core::load_be128(w.payload);
        return {{"ok", boolean(true)},
                {"prefix", str(std::string(w.prefix))},
                {"bits", str(hex128(v))},
                {"canonical", str(is_typeid ? typeid_text(w.prefix, w.payload) : prefixed_text(w.prefix, v))}};
    }
    if (op == "uuid_v7.bits" && in.size() == 1) {
        if (!bytes_of_hex(in[0], bytes) || bytes.size() != 16) return bad("bits are 32 hex digits");
        return {{"unix_ms", v7_ms(reinterpret_cast<const std::uint8_t *>(bytes.data()))}};
    }
    long long a = 0, b = 0, c = 0;
    if (op == "uuid_v7.boundary" && in.size() == 1 && parse_int(in[0], a)) {
        if (a < 0 || a > core::kUuidv7MaxUnixMs) return refused("out_of_range");
        std::uint8_t out[16];
        core::uuidv7_boundary(a, out);
        return {{"ok", boolean(true)}, {"bits", str(hex_of(out, 16))}};
    }
    if (op == "uuid_v7.make" && in.size() == 3 && parse_int(in[0], a) && parse_int(in[1], b) &&
        bytes_of_hex(in[2], bytes) && bytes.size() == 8 && b >= 0 && b < 1000000) {
        // the tick of (unix ms, ns within the ms), then the UUID with 62 random bits
        auto tick = core::uuidv7_tick(a, static_cast<std::uint32_t>(b));
        if (!tick) return refused("out_of_range");
        std::uint64_t random = 0;
        for (unsigned char byte : bytes) random = (random << 8) | byte;
        std::uint8_t out[16];
        core::uuidv7_encode(*tick, random, out);
        return {{"ok", boolean(true)},
                {"rand_a", num(static_cast<long long>(*tick & 4095))},
                {"bits", str(hex_of(out, 16))}};
    }
    for (auto [name, layout] : {std::pair{"snowflake", core::kSnowflake63},
                                std::pair{"snowflake53", core::kSnowflake53}}) {
        std::string family(name);
        if (op == family + ".id" && in.size() == 1) {
            if (!parse_int(in[0], a)) return bad("an id is a decimal int64");
            return answer_snowflake_id(layout, a);
        }
        if (op == family + ".make" && in.size() == 3 && parse_int(in[0], a) && parse_int(in[1], b) &&
            parse_int(in[2], c)) {
            // (ms since the epoch, shard, seq) -> the ID, and the smallest ID of (ms, shard)
            // (the fields' own ranges are snowflake_id's preconditions; the split's
            // first milliseconds are refused as decoders refuse their IDs)
            if (a < 0 || a > core::kSnowflakeMaxMs || !core::snowflake_shard_valid(layout, b) || c < 0 ||
                c > core::snowflake_max_seq(layout))
                return refused("field_out_of_range");
            auto stamp = (static_cast<core::SnowflakeStamp>(a) << layout.seq_bits) |
                         static_cast<core::SnowflakeStamp>(c);
            std::int64_t id = core::snowflake_id(layout, stamp, static_cast<std::int32_t>(b));
            if (!core::snowflake_id_valid(layout, id)) return refused("out_of_range");
            return {{"ok", boolean(true)},
                    {"id", str(std::to_string(id))},
                    {"boundary", str(std::to_string(core::snowflake_boundary(layout, a, static_cast<std::int32_t>(b))))}};
        }
    }
    return bad("unknown operation or inputs");
}

// An answer as one JSON object on one line (the fields are ASCII).
inline std::string answer_json(const Answer &answer) {
    std::string out = "{";
    for (std::size_t i = 0; i < answer.size(); ++i) {
        if (i) out += ", ";
        out += "\"" + answer[i].first + "\": ";
        const AnswerValue &v = answer[i].second;
        if (v.kind != AnswerValue::string) {
            out += v.text;
            continue;
        }
        out += '"';
        for (unsigned char ch : v.text) {
            if (ch == '"' || ch == '\\') {
                out += '\\';
                out += static_cast<char>(ch);
            } else if (ch < 0x20 || ch >= 0x7f) {
                char esc[8];
                std::snprintf(esc, sizeof esc, "\\u%04x", ch);
                out += esc;
            } else {
                out += static_cast<char>(ch);
            }
        }
        out += '"';
    }
    return out + "}";
}

}  // namespace idgen::test
