#include "core/uuidv47.hpp"

namespace idgen::core {
namespace {

constexpr std::size_t kTimeBytes = 6;
constexpr std::size_t kRandomBytes = kUuidv47Bytes - kTimeBytes;

// XORs the 48-bit mask into bytes 0-5, the most significant byte first.
void xor_time(std::uint64_t mask48, const std::uint8_t in[kUuidv47Bytes], std::uint8_t out[kUuidv47Bytes]) {
    for (std::size_t i = 0; i < kTimeBytes; ++i)
        out[i] = static_cast<std::uint8_t>(in[i] ^ (mask48 >> (8 * (kTimeBytes - 1 - i))));
    for (std::size_t i = kTimeBytes; i < kUuidv47Bytes; ++i) out[i] = in[i];
}

constexpr std::uint64_t kMask48 = (std::uint64_t{1} << 48) - 1;

Uuidv47Status check(const std::uint8_t uuid[kUuidv47Bytes], int version) {
    if (!uuid_rfc_variant(uuid)) return Uuidv47Status::wrong_variant;
    if (uuid_version(uuid) != version) return Uuidv47Status::wrong_version;
    return Uuidv47Status::ok;
}

// Copies in to out with the time masked and the version nibble set.
void transform(const SipKey &key, const std::uint8_t in[kUuidv47Bytes], int version,
               std::uint8_t out[kUuidv47Bytes]) {
    xor_time(uuidv47_mask48(key, in), in, out);
    out[6] = static_cast<std::uint8_t>((version << 4) | (out[6] & 0x0F));
}

}  // namespace

std::uint64_t uuidv47_mask48(const SipKey &key, const std::uint8_t uuid[kUuidv47Bytes]) noexcept {
    std::uint8_t message[kUuidv47MessageBytes];
    message[0] = uuid[6] & 0x0F;
    message[1] = uuid[7];
    message[2] = uuid[8] & 0x3F;
    for (std::size_t i = 3; i < kUuidv47MessageBytes; ++i) message[i] = uuid[i + 6];
    return siphash24(key, message, sizeof message) & kMask48;
}

Uuidv47Status uuidv47_mask(const SipKey &key, const std::uint8_t v7[kUuidv47Bytes],
                           std::uint8_t facade[kUuidv47Bytes]) noexcept {
    Uuidv47Status status = check(v7, kUuidv47StoredVersion);
    if (status == Uuidv47Status::ok) transform(key, v7, kUuidv47FacadeVersion, facade);
    return status;
}

Uuidv47Status uuidv47_unmask(const SipKey &key, const std::uint8_t facade[kUuidv47Bytes],
                             std::uint8_t v7[kUuidv47Bytes]) noexcept {
    Uuidv47Status status = check(facade, kUuidv47FacadeVersion);
    if (status == Uuidv47Status::ok) transform(key, facade, kUuidv47StoredVersion, v7);
    return status;
}

void ulid_mask(const SipKey &key, const std::uint8_t in[kUuidv47Bytes], std::uint8_t out[kUuidv47Bytes]) noexcept {
    std::uint8_t message[kUlidMaskMessageBytes];
    for (std::size_t i = 0; i < kRandomBytes; ++i) message[i] = in[kTimeBytes + i];
    message[kRandomBytes] = 'U';
    message[kRandomBytes + 1] = 'L';
    xor_time(siphash24(key, message, sizeof message) & kMask48, in, out);
}

}  // namespace idgen::core
