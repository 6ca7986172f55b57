package idgen_test

import (
	"testing"
	"time"

	idgen "github.com/idgen/idgen/clients/go"
)

// TestSnowflakeLayoutReadme: the README's example, Discord's documented ID
// and docs/reference.md's layout of one's own, with their figures.
func TestSnowflakeLayoutReadme(t *testing.T) {
	// README module begins
	discord, err := idgen.PredefinedSnowflakeLayout("discord")
	parts, err := discord.Decompose(175928847299117063) // parts.Fields["worker"] 1, ["sequence"] 7; parts.Time 2016-04-30 11:18:25.796 UTC
	shop, err := idgen.NewSnowflakeLayout(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Millisecond,
		idgen.SnowflakeLayoutField{Name: "time", Bits: 42}, idgen.SnowflakeLayoutField{Name: "region", Bits: 4},
		idgen.SnowflakeLayoutField{Name: "worker", Bits: 6}, idgen.SnowflakeLayoutField{Name: "sequence", Bits: 11})
	id, err := shop.Compose(time.Date(2026, 12, 4, 5, 0, 0, 500e6, time.UTC), map[string]int64{"region": 15, "worker": 63, "sequence": 2047})
	from, err := shop.Boundary(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)) // WHERE id >= from
	// README module ends
	if err != nil || parts.Fields["worker"] != 1 || parts.Fields["process"] != 0 || parts.Fields["sequence"] != 7 ||
		parts.UnixMs != 1462015105796 || id != 458277205837873151 || from != 458239456051200000 {
		t.Errorf("%+v %d %d %v", parts, id, from, err)
	}
}
