"""asyncpg: binary codecs for idgen's types.

    import idgen.asyncpg
    await idgen.asyncpg.register_types(conn)
    pool = await asyncpg.create_pool(..., init=idgen.asyncpg.register_types)

Results of ulid, prefixed_id, typeid, ksuid, objectid, rsxid and their
domains arrive as ULID, PrefixedId, TypeId, KSUID, ObjectId and XID;
parameters may be those, str (the text form), bytes (the raw bytes of a
ksuid, objectid or rsxid), uuid.UUID (a ulid), python-ulid's ULID, PyMongo's
bson.ObjectId or svix-ksuid's Ksuid. The wire carries the binary formats
(docs/internals.md)."""

from . import _catalog
from ._values import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

__all__ = ["register_types"]


def _ulid_encode(value):
    return ULID(value).bytes


def _prefixed_encoder(cls):
    def encode(value):
        if type(value) is not cls:
            value = cls(value)
        return value.to_binary()
    return encode


def _raw_encoder(cls):
    def encode(value):
        if type(value) is not cls:
            value = cls(value)
        return value.bytes
    return encode


_CODECS = {
    "ulid": (_ulid_encode, ULID.from_bytes),
    "prefixed_id": (_prefixed_encoder(PrefixedId), PrefixedId.from_binary),
    "typeid": (_prefixed_encoder(TypeId), TypeId.from_binary),
    "ksuid": (_raw_encoder(KSUID), KSUID.from_bytes),
    "objectid": (_raw_encoder(ObjectId), ObjectId.from_bytes),
    "xid": (_raw_encoder(XID), XID.from_bytes),
}


async def register_types(conn):
    """Installs the binary codecs on an asyncpg connection (domains use their
    base type's codec); usable as create_pool(init=...)."""
    query = _catalog.types_query(await conn.fetchrow(_catalog.LOOKUP_QUERY))
    rows = [tuple(row) for row in await conn.fetch(query)]
    for oid, array_oid, typname, schema, family, is_base in rows:
        if not is_base:
            continue
        encoder, decoder = _CODECS[family]
        await conn.set_type_codec(typname, schema=schema, encoder=encoder, decoder=decoder,
                                  format="binary")
    return conn
