package test

import (
	"strings"
	"testing"

	idgen "github.com/idgen/idgen/clients/go"
	pgxidgen "github.com/idgen/idgen/clients/go/pgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// A GORM model with every family: the migrator writes the column types and
// the DEFAULTs, and Create reads back what the DEFAULTs minted.
// README snippet begins
// README module begins
type GormOrder struct {
	ID      int64            `gorm:"primaryKey;autoIncrement:false;default:snowflake(7)"`
	Key     string           `gorm:"type:uuid;not null;default:uuid_v7()"`
	Ref     idgen.ULID       `gorm:"not null;default:ulid()"`
	Account idgen.PrefixedID `gorm:"type:account_id;not null;default:prefixed_id_new('acct')"`
	User    idgen.TypeID     `gorm:"type:user_id;default:typeid_new('user')"`
	Small   int64            `gorm:"not null;default:snowflake53(3)"`
	Note    string
}

// README module ends
// README snippet ends

func TestGorm(t *testing.T) {
	connect(t)
	cfg, err := pgx.ParseConfig("search_path=gotest,public")
	if err != nil {
		t.Fatal(err)
	}
	// README module begins
	sqlDB := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(pgxidgen.Register))
	db, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), &gorm.Config{Logger: logger.Discard})
	// README module ends
	defer sqlDB.Close()
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	db.Exec(`DROP TABLE IF EXISTS gorm_orders`)
	if err := db.AutoMigrate(&GormOrder{}); err != nil {
		t.Fatalf("AutoMigrate: %v", err)
	}
	var defaults []string
	db.Raw(`SELECT a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || pg_get_expr(d.adbin, d.adrelid)
	        FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	        WHERE a.attrelid = 'gorm_orders'::regclass ORDER BY a.attnum`).Scan(&defaults)
	want := []string{"id bigint snowflake(7)", "key uuid uuid_v7()", "ref ulid ulid()",
		"account account_id prefixed_id_new('acct'::text)", "user user_id typeid_new('user'::text)", "small bigint snowflake53(3)"}
	if strings.Join(defaults, "; ") != strings.Join(want, "; ") {
		t.Errorf("the migrator's columns:\n got %q\nwant %q", defaults, want)
	}
	o := GormOrder{Note: "first"}
	if err := db.Create(&o).Error; err != nil {
		t.Fatalf("Create: %v", err)
	}
	if o.ID < 1<<53 || o.Key == "" || o.Ref == (idgen.ULID{}) || o.Account.Prefix != "acct" || o.User.Prefix != "user" || o.Small <= 0 || o.Small >= 1<<53 {
		t.Errorf("Create did not read back the DEFAULTs: %+v", o)
	}
	if shard, err := idgen.SnowflakeShard(o.ID); err != nil || shard != 7 {
		t.Errorf("the snowflake's shard: %d %v", shard, err)
	}
	var found GormOrder
	if err := db.Where("ref = ? AND account = ? AND \"user\" = ?", o.Ref, o.Account, o.User).First(&found).Error; err != nil || found != o {
		t.Errorf("First by ref, account and user: %v %+v", err, found)
	}
	given := GormOrder{Ref: idgen.MustParseULID("01H455VB4PEX5VSKNK084SN02Q"), Note: "given"}
	if err := db.Create(&given).Error; err != nil || given.Ref.String() != "01H455VB4PEX5VSKNK084SN02Q" {
		t.Errorf("Create with a given ULID: %v %s", err, given.Ref)
	}
	if err := db.Model(&found).Update("note", "updated").Error; err != nil {
		t.Errorf("Update: %v", err)
	}
	if n := db.Where("ref = ?", given.Ref).Delete(&GormOrder{}).RowsAffected; n != 1 {
		t.Errorf("Delete by ULID: %d rows", n)
	}
	// A second AutoMigrate keeps the table and its rows, but GORM's PostgreSQL
	// migrator re-issues ALTER COLUMN for the domain columns (it reads their
	// base type) and the DEFAULTs it cannot compare (README, "Limits"): no
	// other column is touched.
	db2 := db.Session(&gorm.Session{Logger: recorder{&seen}})
	if err := db2.AutoMigrate(&GormOrder{}); err != nil {
		t.Errorf("the second AutoMigrate: %v", err)
	}
	for _, s := range seen {
		if strings.HasPrefix(s, "ALTER") && !strings.Contains(s, `COLUMN "account"`) && !strings.Contains(s, `COLUMN "user"`) &&
			s != `ALTER TABLE "gorm_orders" ALTER COLUMN "key" SET DEFAULT uuid_v7()` {
			t.Errorf("the second AutoMigrate alters another column: %s", s)
		}
	}
	var again GormOrder
	if err := db.First(&again, o.ID).Error; err != nil || again.Account != o.Account || again.User != o.User || again.Note != "updated" {
		t.Errorf("the row after the second AutoMigrate: %v %+v", err, again)
	}
}
