// Sqids (core/sqids.hpp): the 30 cases of the spec's suite read from
// ../shared/data/sqids-spec/ at run time, the default blocklist header against
// the spec's blocklist.json, every refusal, round trips and 2^63 - 1.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/sqids.hpp"
#include "core/sqids_blocklist.hpp"
#include "shared_data.hpp"

using namespace idgen::core;
using idgen::test::Json;

namespace {

// A coder with its blocklist's storage.
struct Coder {
    Sqids sqids{};
    std::vector<std::string> lower;
    std::vector<SqidsWord> words;
    SqidsAlphabetCheck check{};
    bool min_length_ok = true;

    bool ok() const { return check.status == SqidsAlphabetStatus::ok && min_length_ok; }

    std::string encode(const std::vector<std::uint64_t> &numbers, SqidsEncodeStatus *status = nullptr) const {
        std::string out(sqids_encoded_capacity(numbers.size(), sqids.min_length), '\0');
        SqidsEncodeResult r = sqids_encode(sqids, numbers.data(), numbers.size(), out.data(), out.size());
        if (status) *status = r.status;
        else EXPECT_EQ(r.status, SqidsEncodeStatus::ok);
        out.resize(r.length);
        return out;
    }

    std::vector<std::uint64_t> decode(const std::string &id, SqidsDecodeStatus *status = nullptr) const {
        std::vector<std::uint64_t> out(sqids_decoded_capacity(id.size()));
        SqidsDecodeResult r = sqids_decode(sqids, id, out.data(), out.size());
        if (status) *status = r.status;
        else EXPECT_EQ(r.status, SqidsDecodeStatus::ok) << id;
        out.resize(r.count);
        return out;
    }
};

std::vector<std::string> default_blocklist() {
    std::vector<std::string> out;
    for (std::string_view w : kSqidsDefaultBlocklist) out.emplace_back(w);
    return out;
}

void make(Coder &c, const std::string &alphabet, std::int64_t min_length, const std::vector<std::string> &blocklist) {
    c.check = sqids_init(c.sqids, alphabet);
    if (c.check.status != SqidsAlphabetStatus::ok) return;
    c.min_length_ok = sqids_set_min_length(c.sqids, min_length);
    c.lower.clear();
    for (const std::string &w : blocklist) {
        std::string lower(w.size(), '\0');
        if (sqids_keep_word(c.sqids, w, lower.data())) c.lower.push_back(lower);
    }
    c.words.clear();
    for (const std::string &w : c.lower) c.words.push_back(sqids_word(w));
    c.sqids.blocklist = c.words.data();
    c.sqids.blocklist_size = c.words.size();
}

// Options from a test and a check's override, absent ones the defaults.
void make_from(Coder &c, const Json *test_options, const Json *check_options) {
    std::string alphabet = kSqidsDefaultAlphabet;
    std::int64_t min_length = 0;
    std::vector<std::string> blocklist = default_blocklist();
    for (const Json *o : {test_options, check_options}) {
        if (!o) continue;
        if (const Json *a = o->find("alphabet")) alphabet = a->text;
        if (const Json *m = o->find("minLength")) min_length = std::stoll(m->text);
        if (const Json *b = o->find("blocklist")) {
            blocklist.clear();
            for (const Json &w : b->items) blocklist.push_back(w.text);
        }
    }
    make(c, alphabet, min_length, blocklist);
}

std::string spec_message(const Coder &c) {
    switch (c.check.status) {
        case SqidsAlphabetStatus::multibyte: return "Alphabet cannot contain multibyte characters";
        case SqidsAlphabetStatus::too_short: return "Alphabet length must be at least 3";
        case SqidsAlphabetStatus::repeated: return "Alphabet must contain unique characters";
        case SqidsAlphabetStatus::ok: break;
    }
    return c.min_length_ok ? "" : "Minimum length has to be between 0 and 255";
}

std::string spec_encode_message(SqidsEncodeStatus s) {
    switch (s) {
        case SqidsEncodeStatus::exhausted: return "Reached max attempts to re-generate the ID";
        case SqidsEncodeStatus::out_of_range: return "Encoding supports numbers between 0 and";
        default: return "";
    }
}

// A JSON array of numbers: false when one is negative (refused before the core).
bool numbers_of(const Json &array, std::vector<std::uint64_t> &out) {
    out.clear();
    for (const Json &n : array.items) {
        if (n.text[0] == '-') return false;
        out.push_back(std::stoull(n.text));
    }
    return true;
}

int run_spec_file(const Json &file, int *checks) {
    int tests = 0;
    for (const Json &test : file.items) {
        ++tests;
        SCOPED_TRACE(test["test"].text);
        const Json *options = test.find("options");
        for (const Json &check : test["checks"].items) {
            ++*checks;
            Coder c;
            make_from(c, options, check.find("options"));
            const std::string &op = check["op"].text;
            const Json *error = check.find("error");
            if (op == "construct") {
                EXPECT_TRUE(error);
                EXPECT_FALSE(c.ok());
                if (!error) continue;
                EXPECT_EQ(spec_message(c), error->text);
                continue;
            }
            if (!c.ok()) {
                ADD_FAILURE() << spec_message(c);
                continue;
            }
            std::vector<std::uint64_t> numbers;
            bool representable = !check.find("numbers") || numbers_of(check["numbers"], numbers);
            if (op == "encode" && error) {
                if (!representable) {
                    // -1: a bigint the glue refuses (sqids_encode's 22003); the core takes unsigned.
                    EXPECT_EQ(error->text.rfind("Encoding supports numbers between 0 and", 0), 0u);
                    continue;
                }
                SqidsEncodeStatus status;
                c.encode(numbers, &status);
                if (check.find("note")) {
                    // 2^53: the reference's JavaScript limit; ours is 2^63 - 1.
                    EXPECT_EQ(status, SqidsEncodeStatus::ok);
                    EXPECT_EQ(c.decode(c.encode(numbers)), numbers);
                } else {
                    EXPECT_EQ(spec_encode_message(status), error->text);
                }
            } else if (op == "encode") {
                EXPECT_TRUE(representable);
                EXPECT_EQ(c.encode(numbers), check["id"].text);
            } else if (op == "decode") {
                EXPECT_EQ(c.decode(check["id"].text), numbers) << check["id"].text;
            } else if (op == "roundtrip") {
                std::string id = c.encode(numbers);
                EXPECT_EQ(c.decode(id), numbers);
                if (const Json *computed = check.find("id_computed")) {
                    EXPECT_EQ(id, computed->text);
                }
                if (const Json *least = check.find("min_id_length")) {
                    EXPECT_GE(id.size(), std::stoul(least->text));
                }
            } else {
                ADD_FAILURE() << "unknown op " << op;
            }
        }
    }
    return tests;
}

Coder default_coder() {
    Coder c;
    make(c, kSqidsDefaultAlphabet, 0, default_blocklist());
    return c;
}

}  // namespace

TEST(Sqids, SpecSuite) {
    int tests = 0, checks = 0;
    for (const char *name : {"alphabet", "blocklist", "encoding", "minlength"}) {
        IDGEN_SHARED_JSON(file, std::string("sqids-spec/tests_") + name + ".json");
        tests += run_spec_file(file, &checks);
    }
    EXPECT_EQ(tests, 30);
    EXPECT_EQ(checks, 186);
}

TEST(Sqids, DefaultsMatchTheSpec) {
    IDGEN_SHARED_JSON(defaults, "sqids-spec/defaults.json");
    EXPECT_EQ(defaults["alphabet"].text, kSqidsDefaultAlphabet);
    EXPECT_EQ(std::stoul(defaults["minLength_max"].text), kSqidsMaxMinLength);
    EXPECT_EQ(std::stoul(defaults["blocklist_words"].text), kSqidsDefaultBlocklistSize);
}

// The generated header holds blocklist.json's words, in order (so neither can
// drift from the other: test/lib/sqids_blocklist.py writes the header).
TEST(Sqids, BlocklistHeaderMatchesJson) {
    IDGEN_SHARED_JSON(list, "sqids-spec/blocklist.json");
    ASSERT_EQ(list.items.size(), kSqidsDefaultBlocklistSize);
    for (std::size_t k = 0; k < kSqidsDefaultBlocklistSize; ++k)
        EXPECT_EQ(list.items[k].text, kSqidsDefaultBlocklist[k]) << k;
}

TEST(Sqids, Simple) {
    Coder c = default_coder();
    EXPECT_EQ(c.encode({1, 2, 3}), "86Rf07");
    EXPECT_EQ(c.decode("86Rf07"), (std::vector<std::uint64_t>{1, 2, 3}));
    EXPECT_EQ(c.encode({}), "");
}

TEST(Sqids, AlphabetRefusals) {
    Sqids s;
    SqidsAlphabetCheck k = sqids_init(s, "ab");
    EXPECT_EQ(k.status, SqidsAlphabetStatus::too_short);
    k = sqids_init(s, "");
    EXPECT_EQ(k.status, SqidsAlphabetStatus::too_short);
    k = sqids_init(s, "abcb");
    EXPECT_EQ(k.status, SqidsAlphabetStatus::repeated);
    EXPECT_EQ(k.position, 3u);
    EXPECT_EQ(k.first, 1u);
    k = sqids_init(s, "ab\xc3\xab");
    EXPECT_EQ(k.status, SqidsAlphabetStatus::multibyte);
    EXPECT_EQ(k.position, 2u);
    // Multibyte is found before the length: "é" alone is 2 bytes, 1 character.
    EXPECT_EQ(sqids_init(s, "\xc3\xa9").status, SqidsAlphabetStatus::multibyte);
    // Case matters: "aA" are two characters.
    EXPECT_EQ(sqids_init(s, "aAb").status, SqidsAlphabetStatus::ok);
    // All 128 single-byte characters, NUL included.
    std::string all;
    for (int b = 0; b < 128; ++b) all.push_back(static_cast<char>(b));
    EXPECT_EQ(sqids_init(s, all).status, SqidsAlphabetStatus::ok);
    EXPECT_EQ(s.length, 128u);
}

TEST(Sqids, MinLengthBounds) {
    Sqids s;
    ASSERT_EQ(sqids_init(s, kSqidsDefaultAlphabet).status, SqidsAlphabetStatus::ok);
    EXPECT_FALSE(sqids_set_min_length(s, -1));
    EXPECT_FALSE(sqids_set_min_length(s, 256));
    EXPECT_EQ(s.min_length, 0u);
    EXPECT_TRUE(sqids_set_min_length(s, 255));
    EXPECT_EQ(s.min_length, 255u);
}

TEST(Sqids, BlocklistFiltering) {
    Sqids s;
    ASSERT_EQ(sqids_init(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ").status, SqidsAlphabetStatus::ok);
    char lower[16];
    EXPECT_TRUE(sqids_keep_word(s, "SxnZkl", lower));
    EXPECT_EQ(std::string(lower, 6), "sxnzkl");
    EXPECT_FALSE(sqids_keep_word(s, "ab", lower));     // under 3 characters
    EXPECT_FALSE(sqids_keep_word(s, "ab1", lower));    // a digit outside the alphabet
    EXPECT_FALSE(sqids_keep_word(s, "ab\xc3\xa9", lower));
    EXPECT_TRUE(sqids_word("ab1c").has_digit);
    EXPECT_FALSE(sqids_word("abc").has_digit);
}

TEST(Sqids, BlockedRules) {
    Coder c;
    make(c, kSqidsDefaultAlphabet, 0, {"abc", "a1bc", "word"});
    EXPECT_TRUE(sqids_blocked(c.sqids, "ABC"));      // equal, case aside
    EXPECT_FALSE(sqids_blocked(c.sqids, "xabcx"));   // a 3-letter word only matches a whole ID
    EXPECT_TRUE(sqids_blocked(c.sqids, "a1bcxy"));   // a digit word at the start
    EXPECT_TRUE(sqids_blocked(c.sqids, "xya1bc"));   // or the end
    EXPECT_FALSE(sqids_blocked(c.sqids, "xa1bcy"));  // not inside
    EXPECT_TRUE(sqids_blocked(c.sqids, "xWoRdy"));   // a letter word anywhere
    EXPECT_FALSE(sqids_blocked(c.sqids, "wor"));
}

TEST(Sqids, Exhausted) {
    Coder c;
    make(c, "abc", 3, {"cab", "abc", "bca"});
    SqidsEncodeStatus status;
    c.encode({0}, &status);
    EXPECT_EQ(status, SqidsEncodeStatus::exhausted);
}

TEST(Sqids, OutOfRangeAndBuffer) {
    Coder c = default_coder();
    std::uint64_t numbers[] = {1, kSqidsMaxValue + 1};
    char out[256];
    SqidsEncodeResult r = sqids_encode(c.sqids, numbers, 2, out, sizeof out);
    EXPECT_EQ(r.status, SqidsEncodeStatus::out_of_range);
    EXPECT_EQ(r.index, 1u);
    numbers[1] = 2;
    r = sqids_encode(c.sqids, numbers, 2, out, sqids_encoded_capacity(2, 0) - 1);
    EXPECT_EQ(r.status, SqidsEncodeStatus::too_small);
}

TEST(Sqids, LargestValue) {
    for (const char *alphabet : {kSqidsDefaultAlphabet, "abc", "01"}) {
        Coder c;
        make(c, alphabet, 0, {});
        if (!c.ok()) {
            EXPECT_STREQ(alphabet, "01");
            continue;
        }
        std::string id = c.encode({kSqidsMaxValue, 0, kSqidsMaxValue});
        EXPECT_EQ(c.decode(id), (std::vector<std::uint64_t>{kSqidsMaxValue, 0, kSqidsMaxValue})) << alphabet;
        if (std::string(alphabet) == "abc") {
            EXPECT_EQ(id.size(), 1 + 63 + 1 + 1 + 1 + 63u);
        }
    }
}

// A digit more than 2^63 - 1 is refused, never wrapped.
TEST(Sqids, DecodeOverflow) {
    Coder c;
    make(c, "abc", 0, {});
    std::string id = c.encode({kSqidsMaxValue});
    ASSERT_EQ(id.size(), 64u);
    // The prefix and 63 digits, all the base's highest: one digit more overflows.
    std::string longer = id + id.substr(1, 1);
    SqidsDecodeStatus status;
    c.decode(longer, &status);
    EXPECT_EQ(status, SqidsDecodeStatus::overflow);
    Coder d = default_coder();
    std::string max = d.encode({kSqidsMaxValue});
    d.decode(max + max.substr(1, 1), &status);
    EXPECT_EQ(status, SqidsDecodeStatus::overflow);
    std::uint64_t one[1];
    std::string two = d.encode({1, 2});
    SqidsDecodeResult r = sqids_decode(d.sqids, two, one, 1);
    EXPECT_EQ(r.status, SqidsDecodeStatus::too_many);
}

TEST(Sqids, LenientDecode) {
    Coder c = default_coder();
    EXPECT_TRUE(c.decode("").empty());
    EXPECT_TRUE(c.decode("86Rf0*").empty());
    EXPECT_TRUE(c.decode("\xc3\xa9").empty());
    // Not canonical, but decodes: the spec's lenient reading.
    std::vector<std::uint64_t> v = c.decode("86Rf07x");
    EXPECT_FALSE(v.empty());
    EXPECT_NE(c.encode(v), "86Rf07x");
}

TEST(Sqids, RoundTrips) {
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    for (const char *alphabet : {kSqidsDefaultAlphabet, "abc", "0123456789abcdef", "xyzXYZ-_"}) {
        for (int min_length : {0, 10, 255}) {
            Coder c;
            make(c, alphabet, min_length, default_blocklist());
            ASSERT_TRUE(c.ok());
            for (int k = 0; k < 300; ++k) {
                std::vector<std::uint64_t> numbers(1 + next() % 5);
                for (auto &n : numbers) n = next() >> (1 + next() % 63);
                SqidsEncodeStatus status;
                std::string id = c.encode(numbers, &status);
                if (status == SqidsEncodeStatus::exhausted) {
                    // Long IDs of "abc" hold "caca" under each of its 4 increments.
                    EXPECT_STREQ(alphabet, "abc");
                    continue;
                }
                EXPECT_EQ(status, SqidsEncodeStatus::ok);
                EXPECT_GE(id.size(), static_cast<std::size_t>(min_length));
                EXPECT_FALSE(sqids_blocked(c.sqids, id)) << id;
                EXPECT_EQ(c.decode(id), numbers) << id;
            }
        }
    }
}
