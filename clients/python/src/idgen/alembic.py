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
(server_default=FetchedValue()) is not compared with the reflected DEFAULT."""

from sqlalchemy import FetchedValue

from . import sqlalchemy as _types  # noqa: F401  (reflection learns the types)
from .sqlalchemy import IdgenType

__all__ = ["autogenerate_options", "compare_type", "compare_server_default"]


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


def autogenerate_options(connection):
    """compare_type, compare_server_default and include_name for
    MigrationContext / context.configure()."""
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
            "include_name": include_name}
