#include "core/timeflake.hpp"

#include <array>

#include "core/words.hpp"

namespace idgen::core {

// In 32-bit words (core/words.hpp), as the text forms divide: a 128-bit
// division would pull in libgcc's __udivti3.
std::size_t timeflake_random_decimal(Uint128 id, char out[kTimeflakeRandomMaxDigits]) noexcept {
    Uint128 random = timeflake_random(id);
    std::array<std::uint32_t, 3> words = {static_cast<std::uint32_t>(random >> 64),
                                          static_cast<std::uint32_t>(random >> 32),
                                          static_cast<std::uint32_t>(random)};
    char reversed[kTimeflakeRandomMaxDigits];
    std::size_t n = 0;
    do {
        reversed[n++] = static_cast<char>('0' + words_divide(words, 10));
    } while (words[0] != 0 || words[1] != 0 || words[2] != 0);
    for (std::size_t i = 0; i < n; ++i) out[i] = reversed[n - 1 - i];
    return n;
}

}  // namespace idgen::core
