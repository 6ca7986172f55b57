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

inline Answer vector_answer(std::string_view op, const std::vector<std::string> &in) {
    auto bad = [](const char *why) { return Answer{{"error", str(why)}}; };
    std::string bytes;
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
