package idgen_test

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
)

// The 128 bits of the binary-format example in docs/internals.md, and the
// TypeID specification's example of the same bits.
const exampleHex = "01890a5dac96774bbcceb302099a8057"

func exampleBits(t *testing.T) [16]byte {
	var b [16]byte
	raw, err := hex.DecodeString(exampleHex)
	if err != nil {
		t.Fatal(err)
	}
	copy(b[:], raw)
	return b
}

func TestTextVectors(t *testing.T) {
	bits := exampleBits(t)
	if got := idgen.ULIDFromUUID(bits).String(); got != "01H455VB4PEX5VSKNK084SN02Q" {
		t.Errorf("ulid text %s", got)
	}
	if got := (idgen.PrefixedID{Prefix: "acct", Bits: bits}).String(); got != "acct_039srkj01e44uynszf2f2njh3" {
		t.Errorf("prefixed_id text %s", got)
	}
	if got := (idgen.TypeID{Prefix: "prefix", Bits: bits}).String(); got != "prefix_01h455vb4pex5vsknk084sn02q" {
		t.Errorf("typeid text %s", got)
	}
	if got := (idgen.TypeID{Bits: bits}).String(); got != "01h455vb4pex5vsknk084sn02q" {
		t.Errorf("typeid text without prefix %s", got)
	}
	u, err := idgen.ParseULID("01h455vb4pex5vsknk084sn02q") // either case
	if err != nil || u.UUID() != bits {
		t.Errorf("ParseULID lower case: %v %x", err, u)
	}
	p, err := idgen.ParsePrefixedID("user_session_039SRKJ01E44UYNSZF2F2NJH3")
	if err != nil || p.Prefix != "user_session" || p.Bits != bits {
		t.Errorf("ParsePrefixedID: %v %+v", err, p)
	}
	ti, err := idgen.ParseTypeID("prefix_01h455vb4pex5vsknk084sn02q")
	if err != nil || ti.Prefix != "prefix" || ti.Bits != bits {
		t.Errorf("ParseTypeID: %v %+v", err, ti)
	}
	max, err := idgen.ParsePrefixedID("a_f5lxx1zz5pnorynqglhzmsp33")
	if err != nil || max.Bits != [16]byte{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255} {
		t.Errorf("the largest body: %v %x", err, max.Bits)
	}
	if tm, ok := ti.Time(); !ok || !tm.Equal(time.UnixMilli(0x01890a5dac96)) {
		t.Errorf("typeid time %v %v", tm, ok)
	}
}

func TestTextErrors(t *testing.T) {
	for _, s := range []string{"", "01H455VB4PEX5VSKNK084SN02", "01H455VB4PEX5VSKNK084SN02QQ",
		"81H455VB4PEX5VSKNK084SN02Q", "01H455VB4PEX5VSKNK084SN0IL", "01H455VB4PEX5VSKNK084SN0OU", "01H455VB4PEX5VSKNK084SN0-Q"} {
		if _, err := idgen.ParseULID(s); err == nil {
			t.Errorf("ParseULID(%q) accepted", s)
		} else if pe := (*idgen.ParseError)(nil); !errors.As(err, &pe) || pe.Type != "ulid" {
			t.Errorf("ParseULID(%q): %v", s, err)
		}
	}
	for _, s := range []string{"acct039srkj01e44uynszf2f2njh3", "_039srkj01e44uynszf2f2njh3", "Acct_039srkj01e44uynszf2f2njh3",
		"acct__039srkj01e44uynszf2f2njh3", "acct_039srkj01e44uynszf2f2njh", "acct_f5lxx1zz5pnorynqglhzmsp34",
		"acct_039srkj01e44uynszf2f2nj-3", strings.Repeat("a", 64) + "_039srkj01e44uynszf2f2njh3"} {
		if _, err := idgen.ParsePrefixedID(s); err == nil {
			t.Errorf("ParsePrefixedID(%q) accepted", s)
		}
	}
	for _, s := range []string{"prefix_01H455VB4PEX5VSKNK084SN02Q", "prefix_81h455vb4pex5vsknk084sn02q", "_01h455vb4pex5vsknk084sn02q",
		"prefix_01h455vb4pex5vsknk084sn0iq", "prefix-01h455vb4pex5vsknk084sn02q", "prefix_", "Prefix_01h455vb4pex5vsknk084sn02q"} {
		if _, err := idgen.ParseTypeID(s); err == nil {
			t.Errorf("ParseTypeID(%q) accepted", s)
		}
	}
}

func TestDecoderRanges(t *testing.T) {
	if _, err := idgen.SnowflakeTime(1<<53-1, idgen.DefaultSnowflakeEpoch); !errors.Is(err, idgen.ErrNotSnowflake) {
		t.Errorf("SnowflakeTime below 2^53: %v", err)
	}
	if _, err := idgen.SnowflakeShard(-1); !errors.Is(err, idgen.ErrNotSnowflake) {
		t.Errorf("SnowflakeShard(-1): %v", err)
	}
	if _, err := idgen.SnowflakeSeq(5); !errors.Is(err, idgen.ErrNotSnowflake) {
		t.Errorf("SnowflakeSeq(5): %v", err)
	}
	for _, id := range []int64{-1, 1 << 53} {
		if _, err := idgen.Snowflake53Time(id, idgen.DefaultSnowflakeEpoch); !errors.Is(err, idgen.ErrNotSnowflake) {
			t.Errorf("Snowflake53Time(%d): %v", id, err)
		}
		if _, err := idgen.Snowflake53Shard(id); !errors.Is(err, idgen.ErrNotSnowflake) {
			t.Errorf("Snowflake53Shard(%d): %v", id, err)
		}
		if _, err := idgen.Snowflake53Seq(id); !errors.Is(err, idgen.ErrNotSnowflake) {
			t.Errorf("Snowflake53Seq(%d): %v", id, err)
		}
	}
	var v4 [16]byte
	v4[6], v4[8] = 0x40, 0x80
	if _, ok := idgen.UUIDv7Time(v4); ok {
		t.Error("UUIDv7Time of a version 4 UUID")
	}
	v4[6], v4[8] = 0x70, 0xc0 // version 7, wrong variant
	if _, ok := idgen.UUIDv7Time(v4); ok {
		t.Error("UUIDv7Time of the wrong variant")
	}
}
