module github.com/idgen/idgen/clients/go/pgx

go 1.25.0

// the root module of this checkout, for work in it; a module that requires
// this one gets the root at the version required below
replace github.com/idgen/idgen/clients/go => ../

require (
	github.com/idgen/idgen/clients/go v0.8.0
	github.com/jackc/pgx/v5 v5.13.0
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	golang.org/x/text v0.41.0 // indirect
)
