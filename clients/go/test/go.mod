// The tests of the Go package against a server: pgx, database/sql (pgx's
// stdlib and lib/pq) and GORM, in a module of their own so that neither
// published module requires lib/pq or GORM.
module github.com/idgen/idgen/clients/go/test

go 1.25.0

// the modules of this checkout, for work in it; go_package.pl tests this
// module as a module proxy serves it, with the two at the versions below
replace (
	github.com/idgen/idgen/clients/go => ../
	github.com/idgen/idgen/clients/go/pgx => ../pgx
)

require (
	github.com/idgen/idgen/clients/go v0.8.0
	github.com/idgen/idgen/clients/go/pgx v0.8.0
	github.com/jackc/pgx/v5 v5.13.0
	github.com/lib/pq v1.12.3
	github.com/rs/xid v1.6.0
	github.com/segmentio/ksuid v1.0.4
	github.com/sony/sonyflake/v2 v2.2.0
	gorm.io/driver/postgres v1.6.3
	gorm.io/gorm v1.31.2
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/jinzhu/inflection v1.0.0 // indirect
	github.com/jinzhu/now v1.1.5 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)
