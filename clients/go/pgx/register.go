// Package pgx registers the types of the idgen PostgreSQL extension (ulid,
// prefixed_id, typeid, ksuid, objectid, rsxid and every domain over them) with pgx v5, so that pgx
// reads and writes them in binary as the values of package idgen
// (github.com/idgen/idgen/clients/go). Import it under a name of its own,
// such as pgxidgen, beside pgx.
package pgx

import (
	"context"
	"errors"
	"fmt"

	idgen "github.com/idgen/idgen/clients/go"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// typesFunctionSQL finds the extension's idgen_types() (docs/reference.md) in
// whatever schema idgen lives: the name to call it by (qualified when its
// schema is not on the search_path; NULL before idgen 0.8.0, which added it)
// and the extension's version; no row without idgen.
const typesFunctionSQL = `
	SELECT pg_catalog.to_regprocedure(e.extnamespace::pg_catalog.regnamespace::pg_catalog.text
	                                  OPERATOR(pg_catalog.||) '.idgen_types()')::pg_catalog.text,
	       e.extversion
	FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'`

// typesSQL is the statement that lists the types and every domain over them
// (base types first, then domains over them, then domains over those), for
// typesFunctionSQL's row, or the error of a database without idgen 0.8.0.
func typesSQL(found bool, function *string, version string) (string, error) {
	if !found {
		return "", fmt.Errorf("idgen: the extension idgen is not installed in this database (CREATE EXTENSION idgen)")
	}
	if function == nil {
		return "", fmt.Errorf("idgen: idgen %s is installed, and this package needs idgen 0.8.0 or later,"+
			" whose idgen_types() lists the types (ALTER EXTENSION idgen UPDATE)", version)
	}
	return "SELECT t.oid, t.name::text, t.array_oid, t.family FROM " + *function + " t", nil
}

// Register looks up idgen's types (ulid, prefixed_id, typeid, ksuid,
// objectid and rsxid) in the connection's database (their OIDs differ from
// one database to the next), and every domain over them
// (prefixed_id_define()'s and typeid_define()'s, a CREATE DOMAIN over one, a
// domain over such a domain), through the extension's idgen_types(), and
// registers them and their arrays in the connection's
// type map, so that pgx reads and writes them in binary. It needs idgen
// 0.8.0 or later, installed in any schema; call it again after creating a
// domain. Use it as pgxpool.Config's AfterConnect.
func Register(ctx context.Context, conn *pgx.Conn) error {
	var function *string
	var version string
	found := true
	err := conn.QueryRow(ctx, typesFunctionSQL, pgx.QueryExecModeSimpleProtocol).Scan(&function, &version)
	if errors.Is(err, pgx.ErrNoRows) {
		found, err = false, nil
	}
	if err != nil {
		return fmt.Errorf("idgen: looking up idgen_types(): %w", err)
	}
	query, err := typesSQL(found, function, version)
	if err != nil {
		return err
	}
	rows, err := conn.Query(ctx, query, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return fmt.Errorf("idgen: looking up the types: %w", err)
	}
	type row struct {
		oid, array   uint32
		name, family string
	}
	var types []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.oid, &r.name, &r.array, &r.family); err != nil {
			rows.Close()
			return err
		}
		types = append(types, r)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("idgen: looking up the types: %w", err)
	}
	m := conn.TypeMap()
	for _, r := range types {
		kind, known := idgen.KindOf(r.family)
		if !known {
			continue // a family this version of the package does not know
		}
		codec := codecs[kind]
		t := &pgtype.Type{Name: r.name, OID: r.oid, Codec: codec}
		m.RegisterType(t)
		if r.array != 0 {
			m.RegisterType(&pgtype.Type{Name: "_" + r.name, OID: r.array, Codec: &pgtype.ArrayCodec{ElementType: t}})
		}
	}
	return nil
}
