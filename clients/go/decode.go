package idgen

import (
	"errors"
	"time"
)

// UUIDv7Time is the millisecond a UUIDv7 carries, as the server's
// uuid_v7_time() reads it: ok is false unless the version is 7 and the
// variant RFC 9562's, where the server returns NULL. Millisecond precision:
// rand_a may hold a fraction (idgen's values) or random bits (others').
func UUIDv7Time(u [16]byte) (t time.Time, ok bool) {
	if u[6]>>4 != 7 || u[8]>>6 != 2 {
		return time.Time{}, false
	}
	return msTime(u[:]), true
}

// DefaultSnowflakeEpoch is idgen.snowflake_epoch's default, 2024-01-01
// 00:00:00 UTC, from which SnowflakeTime and Snowflake53Time count.
var DefaultSnowflakeEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// ErrNotSnowflake is returned for a bigint outside the family's range
// (snowflake: 2^53 and above; snowflake53: 0 to 2^53 - 1), where the
// server's decoders refuse it with SQLSTATE 22003.
var ErrNotSnowflake = errors.New("idgen: the id is outside the family's range")

const limit53 = int64(1) << 53

// The two splits' fields from the most significant bit: the zero bits, 40 of
// ms, then shard and seq (docs/internals.md); TestVectorsLayoutsAndBinary
// holds them to the extension's vectors file.
const (
	snowflakeTimeBits          = 40
	sf63ShardBits, sf63SeqBits = 13, 10
	sf53ShardBits, sf53SeqBits = 4, 9
)

// SnowflakeTime is the millisecond a snowflake() ID was minted in, counted
// from DefaultSnowflakeEpoch. Layout: 40 bits of ms, 13 of shard, 10 of
// sequence.
func SnowflakeTime(id int64) (time.Time, error) {
	return SnowflakeTimeWithEpoch(id, DefaultSnowflakeEpoch)
}

// SnowflakeTimeWithEpoch is SnowflakeTime counted from epoch, for a server
// whose idgen.snowflake_epoch is not the default.
func SnowflakeTimeWithEpoch(id int64, epoch time.Time) (time.Time, error) {
	if id < limit53 {
		return time.Time{}, ErrNotSnowflake
	}
	return epoch.Add(time.Duration(id>>(sf63ShardBits+sf63SeqBits)) * time.Millisecond).UTC(), nil
}

// SnowflakeShard is the shard (0 to 8191) that minted a snowflake() ID.
func SnowflakeShard(id int64) (int, error) {
	if id < limit53 {
		return 0, ErrNotSnowflake
	}
	return int(id >> sf63SeqBits & (1<<sf63ShardBits - 1)), nil
}

// SnowflakeSeq is a snowflake() ID's sequence number in its millisecond and shard (0 to 1023).
func SnowflakeSeq(id int64) (int, error) {
	if id < limit53 {
		return 0, ErrNotSnowflake
	}
	return int(id & (1<<sf63SeqBits - 1)), nil
}

// Snowflake53Time is the millisecond a snowflake53() ID was minted in,
// counted from DefaultSnowflakeEpoch. Layout: 40 bits of ms, 4 of shard, 9 of
// sequence.
func Snowflake53Time(id int64) (time.Time, error) {
	return Snowflake53TimeWithEpoch(id, DefaultSnowflakeEpoch)
}

// Snowflake53TimeWithEpoch is Snowflake53Time counted from epoch, for a
// server whose idgen.snowflake_epoch is not the default.
func Snowflake53TimeWithEpoch(id int64, epoch time.Time) (time.Time, error) {
	if id < 0 || id >= limit53 {
		return time.Time{}, ErrNotSnowflake
	}
	return epoch.Add(time.Duration(id>>(sf53ShardBits+sf53SeqBits)) * time.Millisecond).UTC(), nil
}

// Snowflake53Shard is the shard (0 to 15) that minted a snowflake53() ID.
func Snowflake53Shard(id int64) (int, error) {
	if id < 0 || id >= limit53 {
		return 0, ErrNotSnowflake
	}
	return int(id >> sf53SeqBits & (1<<sf53ShardBits - 1)), nil
}

// Snowflake53Seq is a snowflake53() ID's sequence number (0 to 511).
func Snowflake53Seq(id int64) (int, error) {
	if id < 0 || id >= limit53 {
		return 0, ErrNotSnowflake
	}
	return int(id & (1<<sf53SeqBits - 1)), nil
}

// TimeflakeTime is the millisecond in the high 48 bits of a Timeflake (a
// uuid column's 16 bytes), as the server's timeflake_time() reads it.
func TimeflakeTime(u [16]byte) time.Time { return msTime(u[:]) }

// TimeflakeRandom is a Timeflake's low 80 bits, as the server's
// timeflake_random() gives them: the high 16 bits and the low 64.
func TimeflakeRandom(u [16]byte) (hi uint16, lo uint64) {
	hi = uint16(u[6])<<8 | uint16(u[7])
	for _, b := range u[8:] {
		lo = lo<<8 | uint64(b)
	}
	return hi, lo
}

// PushIDAlphabet is the 64 characters of Firebase push IDs in ASCII order: a
// character's value is its position.
const PushIDAlphabet = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"

// ErrNotPushID is returned for text that is not 20 characters of
// PushIDAlphabet, where the server's push_id_time() refuses it with 22P02.
var ErrNotPushID = errors.New("idgen: not a push ID (20 characters of -, 0-9, A-Z, _ and a-z)")

// PushIDIsValid reports whether s is exactly 20 characters of PushIDAlphabet,
// as the server's push_id_is_valid().
func PushIDIsValid(s string) bool {
	if len(s) != 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if pushIDDigit(s[i]) < 0 {
			return false
		}
	}
	return true
}

// PushIDTime is the millisecond in a push ID's first 8 characters, as the
// server's push_id_time().
func PushIDTime(s string) (time.Time, error) {
	if !PushIDIsValid(s) {
		return time.Time{}, ErrNotPushID
	}
	var ms int64
	for i := 0; i < 8; i++ {
		ms = ms<<6 | int64(pushIDDigit(s[i]))
	}
	return time.UnixMilli(ms).UTC(), nil
}

func pushIDDigit(c byte) int {
	for i := 0; i < len(PushIDAlphabet); i++ {
		if PushIDAlphabet[i] == c {
			return i
		}
	}
	return -1
}
