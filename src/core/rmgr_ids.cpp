#include "core/rmgr_ids.hpp"

#include "core/list_parse.hpp"

namespace idgen::core {

RmgrIdListParse rmgr_parse_id_list(std::string_view text, RmgrIdSet &out) noexcept {
    for (bool &listed : out) listed = false;
    std::size_t pos = 0;
    list_skip_blanks(text, pos);
    if (pos == text.size()) return {RmgrIdListError::none, 0, 0};
    for (;;) {
        // One item: an ID, blanks, then the end or a comma and blanks.
        std::size_t begin = pos;
        std::int32_t id = 0;
        if (!list_read_number(text, pos, kRmgrMaxCustomId, id))
            return {RmgrIdListError::expected_id, begin, pos < text.size() ? 1u : 0u};
        if (id < kRmgrMinCustomId || id > kRmgrMaxCustomId)
            return {RmgrIdListError::out_of_range, begin, pos - begin};
        bool &listed = out[static_cast<std::size_t>(id - kRmgrMinCustomId)];
        if (listed) return {RmgrIdListError::duplicate, begin, pos - begin};
        listed = true;
        list_skip_blanks(text, pos);
        if (pos == text.size()) return {RmgrIdListError::none, 0, 0};
        if (text[pos] != ',') return {RmgrIdListError::expected_comma, pos, 1};
        ++pos;
        list_skip_blanks(text, pos);
    }
}

}  // namespace idgen::core
