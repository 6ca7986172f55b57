"""psycopg2: adapters for idgen's types.

    import idgen.psycopg2
    idgen.psycopg2.register_types(conn)

Parameters: the value classes (and python-ulid's ULID as a ulid, PyMongo's
bson.ObjectId as an objectid and svix-ksuid's Ksuid as a ksuid, where those
libraries are installed) are sent as typed literals ('...'::ulid). Results of
ulid, prefixed_id, typeid, ksuid, objectid, rsxid and their domains, arrays
included, arrive as those classes (psycopg2 reads text only)."""
import importlib

import psycopg2.extensions as ext

from . import _catalog
from ._values import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

__all__ = ["register_types"]

_CLASSES = {"ulid": ULID, "prefixed_id": PrefixedId, "typeid": TypeId,
            "ksuid": KSUID, "objectid": ObjectId, "xid": XID}
# other libraries' values: (module, class name) of each family's, adapted when importable
_FOREIGN = {"ulid": ("ulid", "ULID"), "objectid": ("bson", "ObjectId"), "ksuid": ("ksuid", "Ksuid")}


class _Literal:
    def __init__(self, value, type_name):
        self.text, self.type_name = str(value), type_name

    def getquoted(self):
        return ext.QuotedString(self.text).getquoted() + b"::" + self.type_name.encode()


def _adapter(type_name, convert=None):
    def adapt(value):
        return _Literal(convert(value) if convert else value, type_name)
    return adapt


def register_types(conn_or_cursor, globally=False):
    """Installs the adapters: casters (results) on this connection (or globally),
    and parameter adapters, which psycopg2 keeps process-wide."""
    cur = conn_or_cursor.cursor() if hasattr(conn_or_cursor, "cursor") else conn_or_cursor
    cur.execute(_catalog.LOOKUP_QUERY)
    cur.execute(_catalog.types_query(cur.fetchone()))
    rows = cur.fetchall()
    scope = None if globally else conn_or_cursor
    for oid, array_oid, typname, schema, family, is_base in rows:
        cls = _CLASSES[family]

        def cast(value, cursor, cls=cls):
            return None if value is None else cls.from_text(value)

        caster = ext.new_type((oid,), "IDGEN_" + typname.upper(), cast)
        ext.register_type(caster, scope)
        if array_oid:
            ext.register_type(ext.new_array_type((array_oid,), "IDGEN_%s_ARRAY" % typname.upper(),
                                                 caster), scope)
    names = {family: '"%s".%s' % (schema, typname) for _, _, typname, schema, family, is_base in rows
             if is_base}
    for base, cls in _CLASSES.items():
        if base not in names:
            continue  # a server without the type (the SQL edition has no objectid or rsxid)
        ext.register_adapter(cls, _adapter(names[base]))
        if base in _FOREIGN:
            module, name = _FOREIGN[base]
            try:
                foreign = getattr(importlib.import_module(module), name, None)
            except ImportError:
                continue
            if foreign is not None:
                ext.register_adapter(foreign, _adapter(names[base], cls))
    return conn_or_cursor
