#include "core/ksuid.hpp"

#include <array>

namespace idgen::core {
namespace {

constexpr std::uint8_t kNotADigit = 0xFF;
constexpr std::uint32_t kBase = 62;

// Digit value of every byte; kNotADigit outside the alphabet.
constexpr std::array<std::uint8_t, 256> make_digit_values() {
    std::array<std::uint8_t, 256> values{};
    for (auto &v : values) v = kNotADigit;
    for (std::uint8_t d = 0; d < kBase; ++d) values[static_cast<unsigned char>(kKsuidAlphabet[d])] = d;
    return values;
}

constexpr std::array<std::uint8_t, 256> kDigitValues = make_digit_values();

// The 160-bit value as five 32-bit words, most significant first; five
// digits at a time (62^5 < 2^30), so that each step is one 64-bit
// multiplication or division a word.
constexpr int kWords = 5;
constexpr int kDigitsPerChunk = 5;
constexpr std::uint32_t kChunk = kBase * kBase * kBase * kBase * kBase;  // 62^5
// 27 = 2 + 5 * 5: two leading digits, then five chunks.
constexpr int kLeadDigits = 2;
constexpr int kChunks = 5;

using Words = std::array<std::uint32_t, kWords>;

Words words_of(Ksuid id) {
    return {id.timestamp, static_cast<std::uint32_t>(id.payload >> 96),
            static_cast<std::uint32_t>(id.payload >> 64), static_cast<std::uint32_t>(id.payload >> 32),
            static_cast<std::uint32_t>(id.payload)};
}

Ksuid ksuid_of(const Words &w) {
    Uint128 payload = (Uint128{w[1]} << 96) | (Uint128{w[2]} << 64) | (Uint128{w[3]} << 32) | w[4];
    return Ksuid{w[0], payload};
}

// Writes count digits of value, most significant first.
void write_digits(std::uint32_t value, char *out, int count) {
    for (int i = count; i-- > 0;) {
        out[i] = kKsuidAlphabet[value % kBase];
        value /= kBase;
    }
}

std::uint32_t read_digits(const char *text, int count) {
    std::uint32_t value = 0;
    for (int i = 0; i < count; ++i) value = value * kBase + kDigitValues[static_cast<unsigned char>(text[i])];
    return value;
}

}  // namespace

void ksuid_store(Ksuid id, std::uint8_t out[kKsuidBytes]) noexcept {
    for (std::size_t i = 0; i < kKsuidTimestampBytes; ++i)
        out[i] = static_cast<std::uint8_t>(id.timestamp >> (8 * (kKsuidTimestampBytes - 1 - i)));
    store_be128(id.payload, out + kKsuidTimestampBytes);
}

Ksuid ksuid_load(const std::uint8_t in[kKsuidBytes]) noexcept {
    std::uint32_t timestamp = 0;
    for (std::size_t i = 0; i < kKsuidTimestampBytes; ++i) timestamp = (timestamp << 8) | in[i];
    return Ksuid{timestamp, load_be128(in + kKsuidTimestampBytes)};
}

void ksuid_encode(Ksuid id, char out[kKsuidTextLength]) noexcept {
    Words w = words_of(id);
    for (int c = kChunks; c-- > 0;)
        write_digits(words_divide(w, kChunk), out + kLeadDigits + c * kDigitsPerChunk, kDigitsPerChunk);
    // What is left is below 62^2: 62^27 > 2^160.
    write_digits(w[kWords - 1], out, kLeadDigits);
}

KsuidDecoded ksuid_decode(std::string_view text) noexcept {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (kDigitValues[static_cast<unsigned char>(text[i])] == kNotADigit)
            return {KsuidStatus::bad_character, i, kKsuidNil};
    if (text.size() != kKsuidTextLength) return {KsuidStatus::wrong_length, 0, kKsuidNil};
    Words w{};
    w[kWords - 1] = read_digits(text.data(), kLeadDigits);
    for (int c = 0; c < kChunks; ++c)
        if (!words_multiply_add(w, kChunk, read_digits(text.data() + kLeadDigits + c * kDigitsPerChunk, kDigitsPerChunk)))
            return {KsuidStatus::too_large, 0, kKsuidNil};
    return {KsuidStatus::ok, 0, ksuid_of(w)};
}

KsuidIssue ksuid_issue(KsuidSequence &seq, std::int64_t now, Ksuid above, std::int64_t floor,
                       std::int64_t max_lead, Uint128 payload) noexcept {
    std::int64_t second = now > floor ? now : floor;
    Ksuid last = ksuid_last(seq, above);
    Ksuid id;
    if (ksuid_needs_random(seq, above, second)) {
        id = ksuid_make(static_cast<std::uint32_t>(second), payload);
    } else {
        if (last == kKsuidMax) return {IssueStep::exhausted, kKsuidNil, 0, false, false};
        id = ksuid_next(last);
    }
    std::int64_t id_second = id.timestamp;
    if (id_second > now) {
        auto wait = lead_wait(static_cast<std::uint64_t>(id_second - now),
                              static_cast<std::uint64_t>(max_lead), kKsuidWaitWindowSeconds);
        if (wait > 0) return {IssueStep::wait, kKsuidNil, static_cast<std::int64_t>(wait), false, false};
    }
    KsuidIssue issue{IssueStep::issue, id, 0, now < seq.last_clock, id_second > now};
    seq.last_issued = id;
    seq.last_clock = now;
    return issue;
}

}  // namespace idgen::core
