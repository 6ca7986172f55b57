// The lead bound of the clock families (uuid_v7 and ulid): how far an ID may
// run ahead of the clock that it was issued at, in the family's own unit of
// time (a uuid_v7 tick, a ULID millisecond), and what an issue does at the
// bound. Pure C++17.
#pragma once

#include <cstdint>

namespace idgen::core {

// What a family's issue function decided.
enum class IssueStep {
    issue,      // the ID is the next one, recorded in the sequence
    wait,       // the ID would run more than max_lead ahead: wait for the clock, try again
    exhausted,  // no larger ID exists
};

// How far the clock must advance before an ID lead units ahead of it may be
// issued under a bound of max_lead: 0 when it may be issued now. A lead up to
// window beyond the bound is a burst that waits; a larger one means the clock
// was set back past the bound, and is not waited for (the sequence keeps
// counting up from its last ID).
inline constexpr std::uint64_t lead_wait(std::uint64_t lead, std::uint64_t max_lead,
                                         std::uint64_t window) noexcept {
    return lead > max_lead && lead - max_lead <= window ? lead - max_lead : 0;
}

}  // namespace idgen::core
