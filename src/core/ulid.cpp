#include "core/ulid.hpp"

namespace idgen::core {

UlidIssue ulid_issue(UlidSequence &seq, std::int64_t now_ms, Uint128 above, std::int64_t floor_ms,
                     std::int64_t max_lead_ms, Uint128 random) noexcept {
    std::int64_t ms = now_ms > floor_ms ? now_ms : floor_ms;
    Uint128 last = ulid_last(seq, above);
    Uint128 id;
    if (ulid_needs_random(seq, above, ms)) {
        id = ulid_make(ms, random);
    } else {
        if (last == kUint128Max) return {IssueStep::exhausted, 0, 0, false, false};
        id = last + 1;
    }
    std::int64_t id_ms = ulid_unix_ms(id);
    if (id_ms > now_ms) {
        auto wait = lead_wait(static_cast<std::uint64_t>(id_ms - now_ms),
                              static_cast<std::uint64_t>(max_lead_ms), kUlidWaitWindowMs);
        if (wait > 0) return {IssueStep::wait, 0, static_cast<std::int64_t>(wait), false, false};
    }
    UlidIssue issue{IssueStep::issue, id, 0, now_ms < seq.last_clock_ms, id_ms > now_ms};
    seq.last_issued = id;
    seq.last_clock_ms = now_ms;
    return issue;
}

}  // namespace idgen::core
