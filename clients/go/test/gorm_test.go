package test

import (
	"errors"
	"strings"
	"testing"

	idgen "github.com/idgen/idgen/clients/go"
	pgxidgen "github.com/idgen/idgen/clients/go/pgx"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// GORM models with every family: the migrator writes the column types and the
// DEFAULTs, and Create reads back what the DEFAULTs minted. A reference
// (AccountID, User) takes the base type and no DEFAULT.
// README snippet begins
// README module begins
type GormAccount struct {
	ID   idgen.PrefixedID `gorm:"primaryKey;type:account_id;default:prefixed_id_new('acct')"`
	Name string
}

type GormOrder struct {
	ID        int64            `gorm:"primaryKey;autoIncrement:false;default:snowflake(7)"`
	Key       string           `gorm:"type:uuid;not null;default:uuid_v7()"`
	Ref       idgen.ULID       `gorm:"not null;default:ulid()"`
	AccountID idgen.PrefixedID `gorm:"type:prefixed_id;not null"` // refers to an account: no DEFAULT
	User      *idgen.TypeID    `gorm:"type:typeid"`               // a nullable reference: nil is NULL
	Small     int64            `gorm:"not null;default:snowflake53(3)"`
	Note      string
}

// README module ends
// README snippet ends

// GormOrder with an association: GORM gives the foreign key field the type
// of the key it refers to, whatever its own type: tag says.
type GormAssociated struct {
	ID        int64            `gorm:"primaryKey;autoIncrement:false;default:snowflake(7)"`
	AccountID idgen.PrefixedID `gorm:"type:prefixed_id;not null"`
	Account   GormAccount
}

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
	db.Exec(`DROP TABLE IF EXISTS gorm_associateds, gorm_orders, gorm_accounts`)
	// README module begins
	err = db.AutoMigrate(&GormAccount{}, &GormOrder{})
	// GORM adds a foreign key only for an association field, which would make
	// account_id an account_id (the key's type, the domain with its DEFAULT)
	if err == nil {
		err = db.Exec(`ALTER TABLE gorm_orders ADD FOREIGN KEY (account_id) REFERENCES gorm_accounts`).Error
	}
	// README module ends
	if err != nil {
		t.Fatalf("AutoMigrate: %v", err)
	}
	if err := db.AutoMigrate(&GormAssociated{}); err != nil {
		t.Fatalf("AutoMigrate with an association: %v", err)
	}
	var associated string
	db.Raw(`SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'gorm_associateds'::regclass AND attname = 'account_id'`).Scan(&associated)
	if associated != "account_id" {
		t.Errorf("GORM no longer gives an association's foreign key the key's type: %q (README, GORM)", associated)
	}
	var columns []string
	db.Raw(`SELECT a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text
	        || coalesce(' ' || pg_get_expr(d.adbin, d.adrelid), '')
	        FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	        WHERE a.attrelid IN ('gorm_accounts'::regclass, 'gorm_orders'::regclass) AND a.attnum > 0 AND NOT a.attisdropped
	        ORDER BY a.attrelid::regclass::text, a.attnum`).Scan(&columns)
	want := []string{"gorm_accounts.id account_id true prefixed_id_new('acct'::text)", "gorm_accounts.name text false",
		"gorm_orders.id bigint true snowflake(7)", "gorm_orders.key uuid true uuid_v7()", "gorm_orders.ref ulid true ulid()",
		"gorm_orders.account_id prefixed_id true", "gorm_orders.user typeid false", "gorm_orders.small bigint true snowflake53(3)",
		"gorm_orders.note text false"}
	if strings.Join(columns, "; ") != strings.Join(want, "; ") {
		t.Errorf("the migrator's columns:\n got %q\nwant %q", columns, want)
	}
	var fk string
	db.Raw(`SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'gorm_orders'::regclass AND contype = 'f'`).Scan(&fk)
	if fk != "FOREIGN KEY (account_id) REFERENCES gorm_accounts(id)" {
		t.Errorf("the foreign key: %q", fk)
	}
	acme := GormAccount{Name: "Acme"}
	if err := db.Create(&acme).Error; err != nil || acme.ID.Prefix != "acct" {
		t.Fatalf("Create an account: %v %+v", err, acme)
	}
	o := GormOrder{AccountID: acme.ID, Note: "first"}
	if err := db.Create(&o).Error; err != nil {
		t.Fatalf("Create: %v", err)
	}
	if o.ID < 1<<53 || o.Key == "" || o.Ref == (idgen.ULID{}) || o.AccountID != acme.ID || o.User != nil || o.Small <= 0 || o.Small >= 1<<53 {
		t.Errorf("Create did not read back the DEFAULTs: %+v", o)
	}
	if shard, err := idgen.SnowflakeShard(o.ID); err != nil || shard != 7 {
		t.Errorf("the snowflake's shard: %d %v", shard, err)
	}
	// the reference left out: NULL, which NOT NULL refuses (of the domain, it
	// would have been a new acct_ ID of no account); another prefix: no account
	for _, c := range []struct {
		order GormOrder
		code  string
	}{{GormOrder{Note: "no account"}, "23502"}, {GormOrder{AccountID: idgen.PrefixedID{Prefix: "user", Bits: acme.ID.Bits}, Note: "a user"}, "23503"}} {
		var pgErr *pgconn.PgError
		if err := db.Create(&c.order).Error; !errors.As(err, &pgErr) || pgErr.Code != c.code {
			t.Errorf("Create %q: %v, want SQLSTATE %s", c.order.Note, err, c.code)
		}
	}
	var found GormOrder
	if err := db.Where("ref = ? AND account_id = ? AND \"user\" IS NULL", o.Ref, o.AccountID).First(&found).Error; err != nil || found != o {
		t.Errorf("First by ref and account_id: %v %+v", err, found)
	}
	user, err := idgen.ParseTypeID("user_01h455vb4pex5vsknk084sn02q")
	if err != nil {
		t.Fatal(err)
	}
	given := GormOrder{Ref: idgen.MustParseULID("01H455VB4PEX5VSKNK084SN02Q"), AccountID: acme.ID, User: &user, Note: "given"}
	if err := db.Create(&given).Error; err != nil || given.Ref.String() != "01H455VB4PEX5VSKNK084SN02Q" {
		t.Errorf("Create with a given ULID: %v %s", err, given.Ref)
	}
	var byUser GormOrder
	if err := db.Where("\"user\" = ?", user).First(&byUser).Error; err != nil || byUser.ID != given.ID || byUser.User == nil || *byUser.User != user {
		t.Errorf("First by user: %v %+v", err, byUser)
	}
	if err := db.Model(&found).Update("note", "updated").Error; err != nil {
		t.Errorf("Update: %v", err)
	}
	if n := db.Where("ref = ?", given.Ref).Delete(&GormOrder{}).RowsAffected; n != 1 {
		t.Errorf("Delete by ULID: %d rows", n)
	}
	// A second AutoMigrate keeps the tables and their rows, but GORM's
	// PostgreSQL migrator re-issues ALTER COLUMN for the domain column (it
	// reads its base type) and the DEFAULTs it cannot compare (README,
	// "Limits"): no other column is touched.
	db2 := db.Session(&gorm.Session{Logger: recorder{&seen}})
	if err := db2.AutoMigrate(&GormAccount{}, &GormOrder{}); err != nil {
		t.Errorf("the second AutoMigrate: %v", err)
	}
	for _, s := range seen {
		if strings.HasPrefix(s, "ALTER") && !strings.HasPrefix(s, `ALTER TABLE "gorm_accounts" ALTER COLUMN "id"`) &&
			s != `ALTER TABLE "gorm_orders" ALTER COLUMN "key" SET DEFAULT uuid_v7()` {
			t.Errorf("the second AutoMigrate alters another column: %s", s)
		}
	}
	var again GormOrder
	if err := db.First(&again, o.ID).Error; err != nil || again.AccountID != o.AccountID || again.User != nil || again.Note != "updated" {
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
