"""psycopg 3: idgen's types as ULID, PrefixedId, TypeId, KSUID, ObjectId and
XID, in text and binary.

    import idgen.psycopg
    idgen.psycopg.register_types(conn)   # a Connection, AsyncConnection or pool

register_types() looks up the OIDs of ulid, prefixed_id, typeid, ksuid,
objectid, rsxid and every domain over them (prefixed_id_define(),
typeid_define()) and installs loaders (text and binary, arrays too) and
dumpers for the value classes, python-ulid's ULID (as a ulid), PyMongo's
bson.ObjectId (as an objectid) and svix-ksuid's Ksuid (as a ksuid) on the
connection's adapters."""

from psycopg import adapt, pq
from psycopg.types import TypeInfo

from . import _catalog
from ._values import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

__all__ = ["register_types", "register_types_async"]

_CLASSES = {"ulid": ULID, "prefixed_id": PrefixedId, "typeid": TypeId,
            "ksuid": KSUID, "objectid": ObjectId, "xid": XID}
# the families whose binary form is the value's bytes (the others: to_binary())
_RAW = {"ulid", "ksuid", "objectid", "xid"}
# other libraries' values, by name (psycopg resolves a name only when such a
# value is dumped, so none of them is imported here)
_FOREIGN = {"ulid": "ulid.ULID", "objectid": "bson.objectid.ObjectId", "ksuid": "ksuid.ksuid.Ksuid"}


def _prefixed_loaders(cls):
    class TextLoader(adapt.Loader):
        def load(self, data):
            return cls.from_text(bytes(data).decode("ascii"))

    class BinaryLoader(adapt.Loader):
        format = pq.Format.BINARY

        def load(self, data):
            return cls.from_binary(data)

    return TextLoader, BinaryLoader


def _raw_loaders(cls):
    """A type whose binary form is its raw bytes (ulid, ksuid, objectid, rsxid)."""
    class TextLoader(adapt.Loader):
        def load(self, data):
            return cls.from_text(bytes(data).decode("ascii"))

    class BinaryLoader(adapt.Loader):
        format = pq.Format.BINARY

        def load(self, data):
            return cls.from_bytes(data)

    return TextLoader, BinaryLoader


_LOADERS = {"ulid": _raw_loaders(ULID),
            "prefixed_id": _prefixed_loaders(PrefixedId),
            "typeid": _prefixed_loaders(TypeId),
            "ksuid": _raw_loaders(KSUID),
            "objectid": _raw_loaders(ObjectId),
            "xid": _raw_loaders(XID)}


def _dumpers(name, oid):
    """Text and binary dumpers of one type, with its OID."""
    cls = _CLASSES[name]
    if name in _RAW:
        def own(obj):  # the value class, or another library's value converted
            return obj if type(obj) is cls else cls(obj)

        def binary(obj):
            return own(obj).bytes
    else:
        def own(obj):
            return obj

        def binary(obj):
            return obj.to_binary()

    class TextDumper(adapt.Dumper):
        def dump(self, obj):
            return str(own(obj)).encode("ascii")

    class BinaryDumper(adapt.Dumper):
        format = pq.Format.BINARY

        def dump(self, obj):
            return binary(obj)

    TextDumper.oid = BinaryDumper.oid = oid
    return TextDumper, BinaryDumper


def _install(adapters, rows):
    oids = {}
    for oid, array_oid, typname, schema, family, is_base in rows:
        info = TypeInfo(typname, oid, array_oid)
        info.register(adapters)  # arrays of it load too
        text_loader, binary_loader = _LOADERS[family]
        adapters.register_loader(oid, text_loader)
        adapters.register_loader(oid, binary_loader)
        if is_base:
            oids[family] = oid
    for base, cls in _CLASSES.items():
        if base not in oids:
            continue  # a server without the type (the SQL edition has no objectid or rsxid)
        for dumper in _dumpers(base, oids[base]):
            adapters.register_dumper(cls, dumper)
            if base in _FOREIGN:
                adapters.register_dumper(_FOREIGN[base], dumper)


def register_types(conn_or_pool):
    """Installs idgen's adapters on a psycopg Connection (or Cursor), or on every
    connection of a psycopg_pool ConnectionPool: call it before the pool opens,
    as it wraps the pool's configure callback."""
    if hasattr(conn_or_pool, "_configure"):  # a pool
        return _wrap_pool(conn_or_pool, register_types)
    conn = conn_or_pool
    idle = conn.info.transaction_status == pq.TransactionStatus.IDLE
    with conn.cursor(binary=False) as cur:
        query = _catalog.types_query(cur.execute(_catalog.LOOKUP_QUERY).fetchone())
        rows = cur.execute(query).fetchall()
    if idle and not conn.autocommit:
        conn.rollback()  # leave no transaction open (a pool refuses such a connection)
    _install(conn.adapters, rows)
    return conn


async def register_types_async(conn_or_pool):
    """register_types() for an AsyncConnection or an AsyncConnectionPool."""
    if hasattr(conn_or_pool, "_configure"):
        return _wrap_pool(conn_or_pool, register_types_async)
    conn = conn_or_pool
    idle = conn.info.transaction_status == pq.TransactionStatus.IDLE
    async with conn.cursor(binary=False) as cur:
        await cur.execute(_catalog.LOOKUP_QUERY)
        await cur.execute(_catalog.types_query(await cur.fetchone()))
        rows = await cur.fetchall()
    if idle and not conn.autocommit:
        await conn.rollback()
    _install(conn.adapters, rows)
    return conn


def _wrap_pool(pool, register):
    before = pool._configure

    if register is register_types_async:
        async def configure(conn):
            await register_types_async(conn)
            if before:
                await before(conn)
    else:
        def configure(conn):
            register_types(conn)
            if before:
                before(conn)
    pool._configure = configure
    return pool
