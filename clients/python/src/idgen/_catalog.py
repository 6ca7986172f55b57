"""The catalog query the driver modules share: idgen's three types (found as
members of the extension, in whatever schema it lives) and every domain over
them, with their OIDs and array OIDs."""

TYPES_QUERY = """
WITH base AS (
    SELECT t.oid, t.typname::text AS name
    FROM pg_type t
    JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idgen'
    WHERE t.typname IN ('ulid', 'prefixed_id', 'typeid'))
SELECT t.oid::int, t.typarray::int, t.typname::text, n.nspname::text, b.name
FROM pg_type t
JOIN pg_namespace n ON n.oid = t.typnamespace
JOIN base b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
ORDER BY t.typtype, t.oid
"""


def missing(rows):
    """A RuntimeError for a database without idgen, or None."""
    if not any(row[2] == row[4] for row in rows):
        return RuntimeError("the idgen extension is not installed in this database"
                            " (CREATE EXTENSION idgen)")
    return None
