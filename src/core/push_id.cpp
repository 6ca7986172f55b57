#include "core/push_id.hpp"

namespace idgen::core {

void push_id_encode(Uint128 id, char out[kPushIdLength]) noexcept {
    for (std::size_t i = kPushIdLength; i-- > 0;) {
        out[i] = kPushIdAlphabet[static_cast<unsigned>(id & 63)];
        id >>= kPushIdBitsPerChar;
    }
}

PushIdDecoded push_id_decode(std::string_view text) noexcept {
    Uint128 id = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        std::int8_t digit = kPushIdDigits[static_cast<unsigned char>(text[i])];
        if (digit < 0) return {PushIdStatus::bad_character, i, 0};
        id = (id << kPushIdBitsPerChar) | static_cast<Uint128>(digit);  // only kept when 20 long
    }
    if (text.size() != kPushIdLength) return {PushIdStatus::wrong_length, 0, 0};
    return {PushIdStatus::ok, 0, id};
}

PushIdIssue push_id_issue(PushIdSequence &seq, std::int64_t now_ms, Uint128 random) noexcept {
    Uint128 id;
    if (push_id_needs_random(seq, now_ms)) {
        id = push_id_make(now_ms, random);
    } else {
        if (seq.last_issued == kPushIdMax) return {PushIdStep::exhausted, 0, false};
        id = seq.last_issued + 1;
    }
    PushIdIssue issue{PushIdStep::issue, id, now_ms < seq.last_clock_ms};
    seq.last_issued = id;
    seq.last_clock_ms = now_ms;
    return issue;
}

}  // namespace idgen::core
