// XID (github.com/rs/xid, id.go): 12 bytes, most significant first. Text is
// 20 characters of base32hex, the alphabet 0-9a-v of RFC 4648 §7 in lowercase
// and without padding: 96 bits and 4 zero bits, so that the last character is
// always '0' or 'g'. The reference decoder refuses any other length, any other
// character (uppercase included) and a last character with non-zero low bits;
// so does this one. Pure C++17.
//
//   0                   1                   2                   3
//   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |                 32-bit unsigned Unix seconds                  |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |              24-bit machine id                |  16-bit pid   |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//  |  pid (cont.)  |         24-bit counter, random start          |
//  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/second_counter.hpp"

namespace idgen::core {

inline constexpr std::size_t kXidBytes = kId96Bytes;
inline constexpr std::size_t kXidTextLength = 20;
inline constexpr std::size_t kXidMachineOffset = 4;
inline constexpr std::size_t kXidMachineBytes = 3;
inline constexpr std::size_t kXidPidOffset = 7;
// Machine id and pid together: the 5 bytes that stay fixed within a process.
inline constexpr std::size_t kXidProcessBytes = 5;
inline constexpr std::string_view kXidAlphabet = "0123456789abcdefghijklmnopqrstuv";

// Why text is not an XID, in the order checked: a character outside 0-9a-v
// (at its byte offset), a length other than 20, a last character other than
// '0' or 'g' (it would carry bits beyond the 96).
enum class XidStatus { ok, wrong_length, bad_character, bad_last_character };

struct XidDecoded {
    XidStatus status;
    std::size_t position;  // with bad_character: the byte offset of the first one
};

// Reads 20 base32hex characters into out (written only when ok).
XidDecoded xid_decode(std::string_view text, std::uint8_t out[kXidBytes]) noexcept;

// Writes the 20 characters of id (no terminator).
void xid_encode(const std::uint8_t id[kXidBytes], char out[kXidTextLength]) noexcept;

// The XID of seconds, 5 process bytes (3 of machine id, then the big-endian
// pid) and the low 24 bits of counter.
void xid_make(std::uint32_t seconds, const std::uint8_t process[kXidProcessBytes],
              std::uint32_t counter, std::uint8_t out[kXidBytes]) noexcept;

// The smallest XID of a second: its seconds, then 8 zero bytes.
void xid_boundary(std::uint32_t seconds, std::uint8_t out[kXidBytes]) noexcept;

inline constexpr std::uint32_t xid_pid(const std::uint8_t id[kXidBytes]) noexcept {
    return std::uint32_t{id[kXidPidOffset]} << 8 | id[kXidPidOffset + 1];
}

}  // namespace idgen::core
