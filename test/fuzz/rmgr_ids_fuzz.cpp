// The idgen.replay_resource_manager_ids setting's parser, rmgr_parse_id_list
// (core/rmgr_ids.hpp).
//
// The whole input is text, judged item by item (the text split at every
// comma) by rules written here: a blank text is the empty list; otherwise each
// item, in order, is blanks (spaces, tabs), digits whose value (leading zeros
// aside, compared as text) is an ID from 128 to 255 not listed before, then
// blanks. The first item that breaks a rule gives the error and the text it
// points at: no digit, the character there (or nothing at the end); a value
// out of range or listed twice, its digits; something after the digits and
// blanks, that character. An accepted text gives exactly its IDs, which
// written back ascending ('128,140') and descending with blanks
// ('140 ,\t128') parse to the same set. The first bytes are also a list of
// IDs to write and parse: its set, or the first ID written twice.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/rmgr_ids.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {

constexpr int kMinId = 128, kMaxId = 255;  // access/rmgr.h

struct Outcome {
    RmgrIdListError error = RmgrIdListError::none;
    std::size_t begin = 0;
    std::size_t length = 0;
    std::array<bool, kMaxId - kMinId + 1> ids{};  // only for none
};

bool blank(char c) {
    return c == ' ' || c == '\t';
}

bool digit(char c) {
    return c >= '0' && c <= '9';
}

Outcome failure(RmgrIdListError error, std::size_t begin, std::size_t length) {
    Outcome out;
    out.error = error;
    out.begin = begin;
    out.length = length;
    return out;
}

// The oracle.
Outcome expected_of(std::string_view text) {
    Outcome out;
    bool all_blank = true;
    for (char c : text) all_blank = all_blank && blank(c);
    if (all_blank) return out;
    for (std::size_t start = 0;;) {
        std::size_t end = text.find(',', start);
        if (end == std::string_view::npos) end = text.size();
        std::size_t first = start;
        while (first < end && blank(text[first])) ++first;
        std::size_t last = first;
        while (last < end && digit(text[last])) ++last;
        if (last == first)
            return failure(RmgrIdListError::expected_id, first, first < text.size() ? 1 : 0);
        std::size_t significant = first;
        while (significant + 1 < last && text[significant] == '0') ++significant;
        int id = 0;
        if (last - significant <= 3)
            for (std::size_t i = significant; i < last; ++i) id = id * 10 + (text[i] - '0');
        if (last - significant > 3 || id < kMinId || id > kMaxId)
            return failure(RmgrIdListError::out_of_range, first, last - first);
        if (out.ids[id - kMinId]) return failure(RmgrIdListError::duplicate, first, last - first);
        out.ids[id - kMinId] = true;
        std::size_t after = last;
        while (after < end && blank(text[after])) ++after;
        if (after != end) return failure(RmgrIdListError::expected_comma, after, 1);
        if (end == text.size()) return out;
        start = end + 1;
    }
}

bool same_ids(const RmgrIdSet &got, const Outcome &expected) {
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != expected.ids[i]) return false;
    return true;
}

// Parses into a set that starts full, so that every element must be written.
RmgrIdListParse parse(std::string_view text, RmgrIdSet &set) {
    set.fill(true);
    return rmgr_parse_id_list(text, set);
}

// The IDs of set, ascending or descending, between separators.
std::string write_ids(const RmgrIdSet &set, bool descending, std::string_view separator) {
    std::string text;
    for (int i = 0; i <= kMaxId - kMinId; ++i) {
        int id = descending ? kMaxId - i : kMinId + i;
        if (!set[static_cast<std::size_t>(id - kMinId)]) continue;
        if (!text.empty()) text += separator;
        text += std::to_string(id);
    }
    return text;
}

void check_text(std::string_view text) {
    RmgrIdSet got;
    RmgrIdListParse parsed = parse(text, got);
    Outcome expected = expected_of(text);
    FUZZ_CHECK(parsed.error == expected.error);
    FUZZ_CHECK(parsed.begin <= text.size() && parsed.length <= text.size() - parsed.begin);
    if (parsed.error != RmgrIdListError::none) {
        FUZZ_CHECK(parsed.begin == expected.begin && parsed.length == expected.length);
        return;
    }
    FUZZ_CHECK(same_ids(got, expected));

    // Written back, in either order and with blanks, the same set.
    for (bool descending : {false, true}) {
        std::string written = write_ids(got, descending, descending ? " ,\t" : ",");
        RmgrIdSet again;
        FUZZ_CHECK(parse(written, again).error == RmgrIdListError::none);
        FUZZ_CHECK(again == got);
    }
}

// Up to 16 IDs from the input's bytes, written with separators from one more byte.
void check_written(Input &input) {
    static constexpr std::string_view kSeparators[] = {",", ", ", " , ", "\t,\t"};
    std::size_t count = input.byte() % 17;
    std::string_view separator = kSeparators[input.byte() % 4];
    std::string text = " ";
    Outcome expected;
    bool repeated = false;
    for (std::size_t i = 0; i < count; ++i) {
        int id = kMinId + input.byte() % (kMaxId - kMinId + 1);
        if (i > 0) text += separator;
        std::string digits = std::to_string(id);
        if (!repeated && expected.ids[id - kMinId]) {
            expected = failure(RmgrIdListError::duplicate, text.size(), digits.size());
            repeated = true;
        }
        if (!repeated) expected.ids[id - kMinId] = true;
        text += digits;
    }
    text += ' ';
    RmgrIdSet got;
    RmgrIdListParse parsed = parse(text, got);
    FUZZ_CHECK(parsed.error == expected.error);
    if (repeated) {
        FUZZ_CHECK(parsed.begin == expected.begin && parsed.length == expected.length);
        return;
    }
    FUZZ_CHECK(same_ids(got, expected));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    check_text(text_of(data, size));
    Input input{data, size};
    check_written(input);
    return 0;
}
