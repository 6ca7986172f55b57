// Firebase push-ID decoding (core/push_id.hpp), as push_id_time() and
// push_id_is_valid() use it. The verdict is judged against the rule written
// a second way: the text is valid exactly when it is 20 bytes long and each
// byte is found by a linear search of the alphabet spelled out here; a bad
// byte is the first such, reported before any length; the value is the
// digits' positions read in base 64 by multiplication, and encoding it again
// gives the text back.
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/push_id.hpp"
#include "fuzz.hpp"

using namespace idgen::core;
using namespace idgen::fuzz;

namespace {
constexpr char kAlphabet[] = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

int position_in_alphabet(char c) {
    for (int i = 0; i < 64; ++i)
        if (kAlphabet[i] == c) return i;
    return -1;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::string_view text = text_of(data, size);
    PushIdDecoded decoded = push_id_decode(text);
    std::size_t first_bad = text.size();
    for (std::size_t i = 0; i < text.size() && first_bad == text.size(); ++i)
        if (position_in_alphabet(text[i]) < 0) first_bad = i;
    if (first_bad < text.size()) {
        FUZZ_CHECK(decoded.status == PushIdStatus::bad_character);
        FUZZ_CHECK(decoded.position == first_bad);
        FUZZ_CHECK(!push_id_valid(text));
        return 0;
    }
    if (text.size() != 20) {
        FUZZ_CHECK(decoded.status == PushIdStatus::wrong_length);
        FUZZ_CHECK(!push_id_valid(text));
        return 0;
    }
    FUZZ_CHECK(decoded.status == PushIdStatus::ok);
    FUZZ_CHECK(push_id_valid(text));
    Uint128 value = 0;
    for (char c : text) value = value * 64 + static_cast<Uint128>(position_in_alphabet(c));
    FUZZ_CHECK(decoded.id == value);
    FUZZ_CHECK(decoded.id <= kPushIdMax);
    std::int64_t ms = 0;
    for (std::size_t i = 0; i < 8; ++i) ms = ms * 64 + position_in_alphabet(text[i]);
    FUZZ_CHECK(push_id_unix_ms(decoded.id) == ms);
    char again[kPushIdLength];
    push_id_encode(decoded.id, again);
    FUZZ_CHECK(std::memcmp(again, text.data(), kPushIdLength) == 0);
    return 0;
}
