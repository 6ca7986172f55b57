"""Alembic: options for autogenerate, so that it shows no difference on a
database that an upgrade built with idgen's types.

    # env.py
    from idgen.alembic import autogenerate_options
    context.configure(connection=connection, target_metadata=metadata,
                      **autogenerate_options(connection))

What it fixes: idgen's own tables (prefixed_id_registry, idgen_shard_claim)
are members of the extension and are skipped rather than dropped; a domain
column reflects as its base type (acct_id as prefixed_id), so idgen types are
compared by base type; a column whose DEFAULT is its domain's
(server_default=FetchedValue()) is not compared with the reflected DEFAULT.

What it adds to autogenerate: the revision file imports idgen.sqlalchemy
when it names its types (render_item), and its upgrade() begins with CREATE
EXTENSION IF NOT EXISTS idgen and a prefixed_id_define()/typeid_define() call
for each domain that the metadata's columns name and the database lacks
(PrefixedId("acct_id", prefix="acct")), which downgrade() drops after the
tables (process_revision_directives). An env.py with a hook of its own calls
these from it."""

from alembic.operations import ops
from sqlalchemy import FetchedValue, text

from . import sqlalchemy as _types  # noqa: F401  (reflection learns the types)
from .sqlalchemy import IdgenType, PrefixedId, TypeId

__all__ = ["autogenerate_options", "compare_type", "compare_server_default", "render_item",
           "process_revision_directives"]


def compare_type(context, inspected_column, metadata_column, inspected_type, metadata_type):
    """idgen types by base type, and by domain name where reflection gives it
    (SQLAlchemy 2.1 reflects a domain column as DOMAIN(name, base type), 2.0 as
    the base type)."""
    if isinstance(metadata_type, IdgenType):
        domain = getattr(inspected_type, "data_type", None)
        if domain is not None:
            return (not isinstance(domain, IdgenType) or domain.base != metadata_type.base
                    or inspected_type.name != metadata_type.name)
        return not isinstance(inspected_type, IdgenType) or inspected_type.base != metadata_type.base
    return None  # Alembic's own comparison


def compare_server_default(context, inspected_column, metadata_column, inspected_default,
                           metadata_default, rendered_metadata_default):
    if type(metadata_column.server_default) is FetchedValue:
        return False
    return None


def render_item(type_, obj, autogen_context):
    """idgen's types rendered as Alembic renders them (idgen.sqlalchemy.ULID()),
    with the import that makes the revision file run; a domain's DEFAULT
    (domain_default()) as sa.FetchedValue(), which Alembic 1.11 writes without
    its module."""
    if type_ == "type" and type(obj).__module__ == _types.__name__:
        autogen_context.imports.add("import %s" % _types.__name__)
    elif type_ == "server_default" and type(obj) is FetchedValue:
        return "%sFetchedValue()" % autogen_context.opts["sqlalchemy_module_prefix"]
    return False


def _literal(value):
    return "'%s'" % value.replace("'", "''")


def _define_sql(column_type):
    """The statement that makes the domain a column type names."""
    if not isinstance(column_type, (PrefixedId, TypeId)) or column_type.prefix is None:
        raise ValueError("%r names a domain that the database lacks, and autogenerate cannot write it:"
                         " give its prefix (PrefixedId(%r, prefix=...), TypeId(%r, prefix=...)), or"
                         " create it in a migration of your own"
                         % (column_type, column_type.name, column_type.name))
    schema, _, name = column_type.name.rpartition(".")
    args = [_literal(name), _literal(column_type.prefix)]
    if isinstance(column_type, PrefixedId) and column_type.token:
        args.append("token => true")
    if schema:
        args.append("type_schema => %s" % _literal(schema))
    function = "prefixed_id_define" if isinstance(column_type, PrefixedId) else "typeid_define"
    return "SELECT %s(%s)" % (function, ", ".join(args))


def process_revision_directives(context, revision, directives):
    """Puts CREATE EXTENSION IF NOT EXISTS idgen and the define calls of the
    domains the database lacks before a revision's operations (a revision
    with none is left alone), and their drops after its downgrade's."""
    if not directives or directives[0].upgrade_ops.is_empty():
        return
    conn = context.connection
    metadata = context.opts.get("target_metadata")
    column_types = []
    for one in (metadata if isinstance(metadata, (list, tuple)) else [metadata] if metadata is not None else []):
        for table in one.sorted_tables:
            column_types.extend(c.type for c in table.columns if isinstance(c.type, IdgenType))
    has_extension = conn.exec_driver_sql(
        "SELECT count(*) FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'idgen'").scalar()
    first, drops, seen = [], [], set()
    if not has_extension:
        first.append(ops.ExecuteSQLOp("CREATE EXTENSION IF NOT EXISTS idgen"))
    for column_type in column_types:
        if column_type.name in seen or column_type.name == column_type.base:
            continue
        seen.add(column_type.name)
        if conn.execute(text("SELECT pg_catalog.to_regtype(:name) IS NULL"), {"name": column_type.name}).scalar():
            first.append(ops.ExecuteSQLOp(_define_sql(column_type)))
            drops.insert(0, ops.ExecuteSQLOp("DROP DOMAIN %s" % column_type.name))
    if not has_extension:
        drops.append(ops.ExecuteSQLOp("DROP EXTENSION idgen"))
    script = directives[0]
    script.upgrade_ops.ops[:0] = first
    script.downgrade_ops.ops.extend(drops)


def autogenerate_options(connection):
    """compare_type, compare_server_default, include_name, render_item and
    process_revision_directives for MigrationContext / context.configure()."""
    idle = not connection.in_transaction()
    extension_tables = {name for (name,) in connection.exec_driver_sql(
        "SELECT c.relname FROM pg_depend d JOIN pg_class c ON c.oid = d.objid"
        " WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'e'")}
    if idle:
        # The query began a transaction (SQLAlchemy 2 autobegins): left open,
        # env.py's context.begin_transaction() would join it, not commit, and
        # the connection's close would roll the whole upgrade back.
        connection.rollback()

    def include_name(name, type_, parent_names):
        return not (type_ == "table" and name in extension_tables)

    return {"compare_type": compare_type, "compare_server_default": compare_server_default,
            "include_name": include_name, "render_item": render_item,
            "process_revision_directives": process_revision_directives}
