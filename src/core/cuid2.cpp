#include "core/cuid2.hpp"

#include "core/base36.hpp"
#include "core/sha3.hpp"

namespace idgen::core {
namespace {

constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr std::size_t kHashInputMax =
    kBase36MaxDigits64 + kCuid2MaxLength + kBase36MaxDigits64 + kCuid2FingerprintLength;

void append(char *buffer, std::size_t &at, const char *text, std::size_t length) {
    for (std::size_t i = 0; i < length; ++i) buffer[at++] = text[i];
}

}  // namespace

std::size_t cuid2_draw(const std::uint8_t *random, std::size_t random_len, bool letters, char *out,
                       std::size_t want, std::size_t *written) noexcept {
    const unsigned radix = letters ? 26 : 36;
    const unsigned limit = 256 / radix * radix;
    const char *alphabet = letters ? kDigits + 10 : kDigits;
    std::size_t used = 0;
    while (*written < want && used < random_len) {
        unsigned byte = random[used++];
        if (byte < limit) out[(*written)++] = alphabet[byte % radix];
    }
    return used;
}

std::size_t cuid2_hash_text(std::string_view input, char out[kBase36MaxDigits512]) noexcept {
    std::uint8_t digest[kSha3_512DigestBytes];
    // TextEncoder's UTF-8 of the input: it is ASCII, so its bytes.
    sha3_512(reinterpret_cast<const std::uint8_t *>(input.data()), input.size(), digest);
    return base36_encode512(digest, out);
}

std::size_t cuid2_fingerprint(std::string_view source, char out[kCuid2FingerprintLength]) noexcept {
    char text[kBase36MaxDigits512];
    std::size_t length = cuid2_hash_text(source, text);
    // hash() is the text without its first character; then substring(0, 32).
    std::size_t count = length > 1 ? length - 1 : 0;
    if (count > kCuid2FingerprintLength) count = kCuid2FingerprintLength;
    for (std::size_t i = 0; i < count; ++i) out[i] = text[1 + i];
    return count;
}

std::size_t cuid2_make(const Cuid2Parts &parts, std::size_t length, char out[kCuid2MaxLength]) noexcept {
    if (length < kCuid2MinLength || length > kCuid2MaxLength || parts.salt.size() > kCuid2MaxLength ||
        parts.fingerprint.size() > kCuid2FingerprintLength)
        return 0;
    // `${time + salt + count + fingerprint}`, time and count by toString(36).
    char input[kHashInputMax];
    std::size_t at = 0;
    char number[kBase36MaxDigits64];
    std::size_t digits = base36_encode64(parts.unix_ms > 0 ? static_cast<std::uint64_t>(parts.unix_ms) : 0, number);
    append(input, at, number, digits);
    append(input, at, parts.salt.data(), parts.salt.size());
    digits = base36_encode64(parts.counter, number);
    append(input, at, number, digits);
    append(input, at, parts.fingerprint.data(), parts.fingerprint.size());

    std::uint8_t digest[kSha3_512DigestBytes];
    sha3_512(reinterpret_cast<const std::uint8_t *>(input), at, digest);
    // firstLetter + hash(hashInput).substring(1, length): hash() dropped the
    // text's character 0, substring(1, length) drops one more and ends before
    // the hashed text's character length, i.e. the full text's length + 1.
    // Only those length + 1 leading digits are worked out.
    char text[kBase36MaxLeading512];
    std::size_t text_length = base36_leading512(digest, length + 1, text);
    out[0] = parts.first_letter;
    std::size_t count = 1;
    for (std::size_t i = 2; i < length + 1 && i < text_length; ++i) out[count++] = text[i];
    return count;
}

bool cuid2_valid(std::string_view text, std::size_t min_length, std::size_t max_length) noexcept {
    if (text.size() < min_length || text.size() > max_length || text.size() < 2) return false;
    if (text[0] < 'a' || text[0] > 'z') return false;
    for (char c : text.substr(1))
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
    return true;
}

}  // namespace idgen::core
