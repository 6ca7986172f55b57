// The list of custom WAL resource manager IDs in idgen.replay_resource_manager_ids,
// such as '128, 140': the IDs PostgreSQL leaves to extensions (access/rmgr.h,
// RM_MIN_CUSTOM_ID to RM_MAX_CUSTOM_ID), separated by commas.
//
// Pure C++17: the glue (src/pg/lease.cpp) checks these constants against
// PostgreSQL's and words the errors.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace idgen::core {

inline constexpr std::int32_t kRmgrMinCustomId = 128;  // RM_MIN_CUSTOM_ID
inline constexpr std::int32_t kRmgrMaxCustomId = 255;  // RM_MAX_CUSTOM_ID
inline constexpr std::int32_t kRmgrCustomIdCount = kRmgrMaxCustomId - kRmgrMinCustomId + 1;

// A set of custom IDs: element id - kRmgrMinCustomId is true when id is listed.
using RmgrIdSet = std::array<bool, kRmgrCustomIdCount>;

enum class RmgrIdListError {
    none,
    expected_id,     // no digit where an ID belongs (an empty item, a trailing comma, '-1', 'x')
    out_of_range,    // a number outside kRmgrMinCustomId..kRmgrMaxCustomId, of any length
    duplicate,       // an ID listed a second time
    expected_comma,  // after an ID and its blanks, neither a comma nor the end
};

// The outcome of parsing an ID list; on an error the offending text is
// text.substr(begin, length): the number for out_of_range and duplicate, the
// character found for expected_id and expected_comma (empty at the end of text).
struct RmgrIdListParse {
    RmgrIdListError error;
    std::size_t begin;
    std::size_t length;
};

// Parses a comma-separated list of custom resource manager IDs into out (every
// element written; only the listed IDs true). Blanks (spaces and tabs) may
// surround IDs and commas; an empty or blank text is the empty set. An ID listed
// twice is an error. On an error out holds no meaningful set.
RmgrIdListParse rmgr_parse_id_list(std::string_view text, RmgrIdSet &out) noexcept;

}  // namespace idgen::core
