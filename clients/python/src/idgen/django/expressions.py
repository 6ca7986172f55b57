"""Query expressions and lookups.

    Order.objects.annotate(created=UuidV7Time("id"))
    Event.objects.filter(id__time_gte=start, id__time_lt=end)

UuidV7Time, UlidTime, PrefixedIdTime, TypeIdTime, KsuidTime, ObjectIdTime,
XidTime, SnowflakeTime(expr, epoch=None) and Snowflake53Time(expr, epoch=None)
are the server's decoders. The lookups time_gte and time_lt of every idgen
field compare the column with the boundary function of the timestamp
(uuid_v7_boundary(), ulid_boundary(), snowflake_boundary(),
prefixed_id_boundary(prefix, ...), ksuid_boundary(), ...), so an index on the
column serves a time range; a KSUID, ObjectId or XID carries a second, so its
bounds are that second's."""

from django.db import models
from django.db.models import Func, Lookup, Value

from . import fields

__all__ = ["UuidV7Time", "UlidTime", "PrefixedIdTime", "TypeIdTime", "KsuidTime", "ObjectIdTime", "XidTime",
           "SnowflakeTime", "Snowflake53Time"]


class _Time(Func):
    output_field = models.DateTimeField()


class UuidV7Time(_Time):
    function = "uuid_v7_time"


class UlidTime(_Time):
    function = "ulid_time"


class PrefixedIdTime(_Time):
    function = "prefixed_id_time"


class TypeIdTime(_Time):
    function = "typeid_time"


class KsuidTime(_Time):
    function = "ksuid_time"


class ObjectIdTime(_Time):
    function = "objectid_time"


class XidTime(_Time):
    function = "xid_time"


class SnowflakeTime(_Time):
    """snowflake_time(id) (the server's idgen.snowflake_epoch), or with an epoch."""

    function = "snowflake_time"

    def __init__(self, expression, epoch=None, **extra):
        args = [expression] if epoch is None else [
            expression, Value(epoch, output_field=models.DateTimeField())]
        super().__init__(*args, **extra)


class Snowflake53Time(SnowflakeTime):
    function = "snowflake53_time"


class _TimeLookup(Lookup):
    prepare_rhs = False  # the right side is a datetime, not an ID

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        boundary, extra = self.lhs.output_field.boundary_sql()
        return "%s %s %s" % (lhs, self.operator, boundary.format(rhs)), (
            list(lhs_params) + list(extra) + list(rhs_params))

    def get_db_prep_lookup(self, value, connection):
        return "%s", [models.DateTimeField().get_db_prep_value(value, connection)]


class TimeGte(_TimeLookup):
    """id__time_gte=ts: IDs of ts's millisecond or later."""

    lookup_name, operator = "time_gte", ">="


class TimeLt(_TimeLookup):
    """id__time_lt=ts: IDs of milliseconds before ts's."""

    lookup_name, operator = "time_lt", "<"


for _field in (fields.UUIDv7Field, fields.SnowflakeField, fields.ULIDField, fields.PrefixedIdField,
               fields.TypeIdField, fields.KSUIDField, fields.ObjectIdField, fields.XIDField):
    _field.register_lookup(TimeGte)
    _field.register_lookup(TimeLt)
