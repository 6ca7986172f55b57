package test

import (
	"strings"
	"testing"

	idgen "github.com/idgen/idgen/clients/go"
	pgxidgen "github.com/idgen/idgen/clients/go/pgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
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

// ksuid, objectid and rsxid columns from the package's types, the key among
// them, and from the de-facto types with a type: tag; AutoMigrate's table
// is checked in the catalog.
// README module begins
type GormEvent struct {
	ID     idgen.KSUID    `gorm:"primaryKey;default:ksuid()"`
	Doc    idgen.ObjectID `gorm:"not null;default:objectid()"`
	Trace  idgen.XID      `gorm:"not null;default:xid()"`
	Origin xid.ID         `gorm:"type:rsxid"` // rs/xid's type; its zero value is NULL
	Batch  ksuid.KSUID    `gorm:"type:ksuid"` // segmentio/ksuid's
	Note   string
}

// README module ends

func TestGormFixedSize(t *testing.T) {
	connect(t)
	cfg, err := pgx.ParseConfig("search_path=gotest,public")
	if err != nil {
		t.Fatal(err)
	}
	sqlDB := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(pgxidgen.Register))
	defer sqlDB.Close()
	db, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	db.Exec(`DROP TABLE IF EXISTS gorm_events`)
	if err := db.AutoMigrate(&GormEvent{}); err != nil {
		t.Fatalf("AutoMigrate: %v", err)
	}
	var columns []string
	db.Raw(`SELECT a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text
	        || coalesce(' ' || pg_get_expr(d.adbin, d.adrelid), '')
	        FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	        WHERE a.attrelid = 'gorm_events'::regclass AND a.attnum > 0 ORDER BY a.attnum`).Scan(&columns)
	var key string
	db.Raw(`SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'gorm_events'::regclass AND contype = 'p'`).Scan(&key)
	want := []string{"id ksuid true ksuid()", "doc objectid true objectid()", "trace rsxid true xid()",
		"origin rsxid false", "batch ksuid false", "note text false"}
	if strings.Join(columns, "; ") != strings.Join(want, "; ") || key != "PRIMARY KEY (id)" {
		t.Errorf("the migrator's table:\n got %q %q\nwant %q", columns, key, want)
	}
	origin := xid.New()
	e := GormEvent{Origin: origin, Batch: ksuid.New(), Note: "first"}
	if err := db.Create(&e).Error; err != nil {
		t.Fatalf("Create: %v", err)
	}
	if e.ID == (idgen.KSUID{}) || e.Doc == (idgen.ObjectID{}) || e.Trace == (idgen.XID{}) || e.Origin != origin {
		t.Errorf("Create did not read back the DEFAULTs: %+v", e)
	}
	var found GormEvent
	if err := db.Where("doc = ? AND trace = ? AND origin = ? AND batch = ?", e.Doc, e.Trace, e.Origin, e.Batch).First(&found).Error; err != nil || found != e {
		t.Errorf("First by doc, trace, origin and batch: %v %+v", err, found)
	}
	var byKey GormEvent
	if err := db.First(&byKey, "id = ?", e.ID).Error; err != nil || byKey != e {
		t.Errorf("First by the KSUID key: %v %+v", err, byKey)
	}
	var server string
	db.Raw(`SELECT id::text || ' ' || doc::text || ' ' || trace::text || ' ' || origin::text || ' ' || batch::text FROM gorm_events`).Scan(&server)
	if server != strings.Join([]string{e.ID.String(), e.Doc.String(), e.Trace.String(), e.Origin.String(), e.Batch.String()}, " ") {
		t.Errorf("the row in the database: %s, the model %+v", server, e)
	}
	bare := GormEvent{Note: "no origin"}
	if err := db.Create(&bare).Error; err != nil {
		t.Fatalf("Create without origin: %v", err)
	}
	var nulls int64
	db.Model(&GormEvent{}).Where("origin IS NULL AND batch IS NULL").Count(&nulls)
	if nulls != 1 {
		t.Errorf("the zero xid.ID and ksuid.KSUID are not NULL: %d rows", nulls)
	}
	if n := db.Where("id = ?", bare.ID).Delete(&GormEvent{}).RowsAffected; n != 1 {
		t.Errorf("Delete by KSUID: %d rows", n)
	}
	// a second AutoMigrate alters nothing: no domain, no DEFAULT with arguments
	var seen []string
	if err := db.Session(&gorm.Session{Logger: recorder{&seen}}).AutoMigrate(&GormEvent{}); err != nil {
		t.Errorf("the second AutoMigrate: %v", err)
	}
	for _, s := range seen {
		if strings.HasPrefix(s, "ALTER") {
			t.Errorf("the second AutoMigrate alters a column: %s", s)
		}
	}
}
