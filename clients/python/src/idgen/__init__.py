"""idgen: the types of the idgen PostgreSQL extension in Python.

ULID, PrefixedId, TypeId, KSUID, ObjectId and XID are the values; idgen.decode has the server's
decoders; idgen.psycopg, idgen.psycopg2, idgen.asyncpg, idgen.django,
idgen.sqlalchemy and idgen.alembic plug them into those libraries."""

from ._values import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId
from .decode import (DEFAULT_SNOWFLAKE_EPOCH, snowflake53_seq, snowflake53_shard, snowflake53_time,
                     snowflake_seq, snowflake_shard, snowflake_time, ulid_time, uuid_v7_time)

__version__ = "0.8.0"
__all__ = ["ULID", "PrefixedId", "TypeId", "KSUID", "ObjectId", "XID", "uuid_v7_time", "snowflake_time",
           "snowflake_shard", "snowflake_seq", "snowflake53_time", "snowflake53_shard", "snowflake53_seq", "ulid_time",
           "DEFAULT_SNOWFLAKE_EPOCH"]
