"""How the driver modules find idgen's types: the extension's idgen_types()
(docs/reference.md), which lists ulid, prefixed_id, typeid and every domain
over them, called in the extension's schema (which need not be on the
search_path). Two statements: LOOKUP_QUERY finds the function, and
types_query() of its row is the statement that lists the types."""

# the function, as a name to call (qualified when its schema is not on the
# search_path; NULL before 0.8.0, which added it), and the extension's version
LOOKUP_QUERY = """
SELECT pg_catalog.to_regprocedure(e.extnamespace::pg_catalog.regnamespace::pg_catalog.text
                                  OPERATOR(pg_catalog.||) '.idgen_types()')::pg_catalog.text,
       e.extversion
FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'idgen'
"""


def types_query(row):
    """The statement whose rows are (oid, array_oid, name, schema, family,
    is_base), base types first, for LOOKUP_QUERY's row (None: no row); raises
    RuntimeError for a database without idgen, or with an idgen older than
    0.8.0."""
    if row is None:
        raise RuntimeError("the idgen extension is not installed in this database"
                           " (CREATE EXTENSION idgen)")
    function, version = row
    if function is None:
        raise RuntimeError("idgen %s is installed, and this package needs idgen 0.8.0 or later,"
                           " whose idgen_types() lists the types (ALTER EXTENSION idgen UPDATE)"
                           % version)
    return ("SELECT t.oid, t.array_oid, t.name::text, t.schema::text, t.family,"
            " t.oid OPERATOR(pg_catalog.=) t.base FROM %s t" % function)
