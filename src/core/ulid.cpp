#include "core/ulid.hpp"

namespace idgen::core {

std::optional<UlidIssue> ulid_issue(UlidSequence &seq, std::int64_t now_ms, Uint128 random) noexcept {
    Uint128 id;
    if (ulid_needs_random(seq, now_ms)) {
        id = ulid_make(now_ms, random);
    } else {
        if (seq.last_issued == kUint128Max) return std::nullopt;
        id = seq.last_issued + 1;
    }
    UlidIssue issue{id, now_ms < seq.last_clock_ms, ulid_unix_ms(id) > now_ms};
    seq.last_issued = id;
    seq.last_clock_ms = now_ms;
    return issue;
}

}  // namespace idgen::core
