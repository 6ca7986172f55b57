"""Model fields for idgen's IDs. Each sets db_default to the generator (the
migration writes it as the column's DEFAULT) and db_returning, so save() and
bulk_create() read the minted value back through RETURNING.

    id = UUIDv7Field(primary_key=True)                 # DEFAULT uuid_v7()
    id = SnowflakeField(primary_key=True, shard=7)     # DEFAULT snowflake(7)
    ref = ULIDField(unique=True)                       # DEFAULT ulid(), as idgen.ULID
    id = PrefixedIdField("account_id", "acct", primary_key=True)   # a prefixed_id_define() domain
    id = TypeIdField("user_id", "user", primary_key=True)          # a typeid_define() domain
    ref = KSUIDField(unique=True)                      # DEFAULT ksuid(), as idgen.KSUID
    ref = ObjectIdField(unique=True)                   # DEFAULT objectid(), as idgen.ObjectId
    ref = XIDField(unique=True)                        # rsxid DEFAULT xid(), as idgen.XID

A foreign key to a PrefixedIdField or TypeIdField is a column of the base type
(prefixed_id, typeid): the domain's own DEFAULT would mint a dangling ID."""

from django.core import checks, exceptions
from django.db import models
from django.db.models import Func, Value
from django.db.models.query_utils import DeferredAttribute

from .._values import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

__all__ = ["UUIDv7Field", "SnowflakeField", "Snowflake53Field", "ULIDField", "PrefixedIdField",
           "TypeIdField", "KSUIDField", "ObjectIdField", "XIDField"]


class _DbDefault:
    """db_default from the generator unless given; db_returning; boundary: the
    SQL of the smallest value of a timestamp's millisecond, for the lookups."""

    db_returning = True
    boundary = None

    def boundary_sql(self):
        return self.boundary, []

    def _generator(self):
        raise NotImplementedError

    def _set_default(self, kwargs):
        if "db_default" not in kwargs:
            kwargs["db_default"] = self._generator()
        return kwargs


class UUIDv7Field(_DbDefault, models.UUIDField):
    """uuid, DEFAULT uuid_v7(); reads as uuid.UUID."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **self._set_default(kwargs))

    def _generator(self):
        return Func(function="uuid_v7", output_field=models.UUIDField())

    boundary = "uuid_v7_boundary({})"


class SnowflakeField(_DbDefault, models.BigIntegerField):
    """bigint, DEFAULT snowflake(shard) (shard None: snowflake(), the shard of idgen.shard_id)."""

    function = "snowflake"
    boundary = "snowflake_boundary({})"

    def __init__(self, *args, shard=None, **kwargs):
        self.shard = shard
        super().__init__(*args, **self._set_default(kwargs))

    def _generator(self):
        args = [] if self.shard is None else [Value(int(self.shard))]
        return Func(*args, function=self.function, output_field=models.BigIntegerField())

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if self.shard is not None:
            kwargs["shard"] = self.shard
        return name, path, args, kwargs


class Snowflake53Field(SnowflakeField):
    """bigint, DEFAULT snowflake53(shard): IDs below 2**53, exact in JSON."""

    function = "snowflake53"
    boundary = "snowflake53_boundary({})"


class _ConvertingAttribute(DeferredAttribute):
    """Converts text on assignment: bulk_create() sets RETURNING's values
    without the field's from_db_value()."""

    def __set__(self, instance, value):
        if isinstance(value, str):
            try:
                value = self.field.to_python(value)
            except exceptions.ValidationError:
                pass  # kept as given; full_clean() and the database refuse it
        instance.__dict__[self.field.attname] = value


class _IdgenField(_DbDefault, models.Field):
    """An idgen type or a domain over one, read as the value class."""

    base_type = value_class = None
    empty_strings_allowed = False
    descriptor_class = _ConvertingAttribute

    def get_internal_type(self):
        return "IdgenField"

    def db_type(self, connection):
        return self.base_type

    def rel_db_type(self, connection):
        return self.base_type

    def to_python(self, value):
        if value is None or isinstance(value, self.value_class):
            return value
        try:
            return self.value_class(value)
        except (ValueError, TypeError) as e:
            raise exceptions.ValidationError(str(e), code="invalid") from e

    def from_db_value(self, value, expression, connection):
        return self.to_python(value)

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        if value is None or hasattr(value, "resolve_expression"):
            return value
        return str(self.to_python(value))

    def value_to_string(self, obj):
        value = self.value_from_object(obj)
        return None if value is None else str(value)

    def formfield(self, **kwargs):
        from django import forms
        return super().formfield(**{"form_class": forms.CharField, **kwargs})


class ULIDField(_IdgenField):
    """ulid, DEFAULT ulid(); reads as idgen.ULID; takes its text, a ULID, a uuid.UUID."""

    base_type, value_class = "ulid", ULID
    boundary = "ulid_boundary({})"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **self._set_default(kwargs))

    def _generator(self):
        return Func(function="ulid", output_field=models.TextField())


class _GeneratedField(_IdgenField):
    """A type whose DEFAULT is its generator, called with no argument."""

    function = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **self._set_default(kwargs))

    def _generator(self):
        return Func(function=self.function, output_field=models.TextField())


class KSUIDField(_GeneratedField):
    """ksuid, DEFAULT ksuid(); reads as idgen.KSUID; takes its text, a KSUID,
    20 bytes, svix-ksuid's Ksuid."""

    base_type, value_class, function = "ksuid", KSUID, "ksuid"
    boundary = "ksuid_boundary({})"


class ObjectIdField(_GeneratedField):
    """objectid, DEFAULT objectid(); reads as idgen.ObjectId; takes its text, an
    ObjectId, 12 bytes, PyMongo's bson.ObjectId."""

    base_type, value_class, function = "objectid", ObjectId, "objectid"
    boundary = "objectid_boundary({})"


class XIDField(_GeneratedField):
    """rsxid, DEFAULT xid(); reads as idgen.XID; takes its text, an XID, 12 bytes."""

    base_type, value_class, function = "rsxid", XID, "xid"
    boundary = "xid_boundary({})"


class _PrefixedField(_IdgenField):
    """type_name: a domain of prefixed_id_define()/typeid_define() (or None for
    the base type); prefix: the IDs' prefix, for the DEFAULT and validation."""

    def __init__(self, type_name=None, prefix=None, *args, **kwargs):
        self.type_name, self.prefix = type_name, prefix
        super().__init__(*args, **self._set_default(kwargs))

    def _generator(self):
        if self.prefix is None:
            return models.NOT_PROVIDED
        return Func(Value(self.prefix), function=self.function, output_field=models.TextField())

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs["type_name"], kwargs["prefix"] = self.type_name, self.prefix
        return name, path, args, kwargs

    def db_type(self, connection):
        return self.type_name or self.base_type

    def to_python(self, value):
        value = super().to_python(value)
        if value is not None and self.prefix is not None and value.prefix != self.prefix:
            raise exceptions.ValidationError("%s does not have the prefix %s" % (value, self.prefix),
                                             code="invalid")
        return value

    def boundary_sql(self):
        return self.boundary_function + "(%s::text, {})", [self.prefix or ""]

    def check(self, **kwargs):
        errors = super().check(**kwargs)
        if self.type_name and not self.prefix:
            errors.append(checks.Error("a field of a domain needs its prefix", obj=self,
                                       id="idgen.E001"))
        return errors


class PrefixedIdField(_PrefixedField):
    """prefixed_id, or the domain type_name; DEFAULT prefixed_id_new(prefix)
    (prefixed_id_token(prefix) with token=True); reads as idgen.PrefixedId."""

    base_type, value_class = "prefixed_id", PrefixedId
    boundary_function = "prefixed_id_boundary"

    def __init__(self, type_name=None, prefix=None, *args, token=False, **kwargs):
        self.token = token
        super().__init__(type_name, prefix, *args, **kwargs)

    @property
    def function(self):
        return "prefixed_id_token" if self.token else "prefixed_id_new"

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if self.token:
            kwargs["token"] = True
        return name, path, args, kwargs


class TypeIdField(_PrefixedField):
    """typeid, or the domain type_name; DEFAULT typeid_new(prefix); reads as idgen.TypeId."""

    base_type, value_class = "typeid", TypeId
    boundary_function = "typeid_boundary"
    function = "typeid_new"
