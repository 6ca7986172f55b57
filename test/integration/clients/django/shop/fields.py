"""idgen's types as Django 3.2 model fields, with the database's DEFAULT read back by RETURNING.

Django 3.2 has no db_default. A field with db_returning = True is listed in the RETURNING
clause of every INSERT (save() and bulk_create() alike), and DbDefaultMixin sends the SQL
keyword DEFAULT for it while its value is None, so the column's DEFAULT (set in the
migration) or the prefixed_id_define()/typeid_define() domain's DEFAULT mints the value.
"""
# README snippet begins
import re
import uuid

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.expressions import Expression
from django.db.models.query_utils import DeferredAttribute

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
PREFIX = re.compile(r"[a-z]([a-z_]{0,61}[a-z])?")


class Ulid(str):
    """A ulid as its 26 uppercase characters; .uuid gives its 128 bits."""

    def __new__(cls, text):
        text = str(text).upper()
        if len(text) != 26 or text[0] > "7" or not set(text) <= set(CROCKFORD):
            raise ValueError(f"not a ULID: {text!r}")
        return super().__new__(cls, text)

    @property
    def uuid(self):
        n = 0
        for c in self:
            n = n * 32 + CROCKFORD.index(c)
        return uuid.UUID(int=n)


class PrefixedId(str):
    """A prefixed_id, acct_ and 25 base36 digits; .prefix and .uuid give its parts."""

    def __new__(cls, text):
        prefix, _, body = str(text).rpartition("_")
        body = body.lower()
        if (not PREFIX.fullmatch(prefix) or len(body) != 25
                or not re.fullmatch(r"[0-9a-z]{25}", body) or int(body, 36) >> 128):
            raise ValueError(f"not a prefixed_id: {text!r}")
        return super().__new__(cls, f"{prefix}_{body}")

    @property
    def prefix(self):
        return self.rpartition("_")[0]

    @property
    def uuid(self):
        return uuid.UUID(int=int(self.rpartition("_")[2], 36))


class TypeId(str):
    """A TypeID, user_ and 26 lowercase base32 characters (no prefix, no underscore)."""

    def __new__(cls, text):
        prefix, sep, suffix = str(text).rpartition("_")
        if ((sep and not PREFIX.fullmatch(prefix)) or len(suffix) != 26 or suffix[0] > "7"
                or not set(suffix) <= set(CROCKFORD.lower())):
            raise ValueError(f"not a TypeID: {text!r}")
        return super().__new__(cls, text)

    @property
    def prefix(self):
        return self.rpartition("_")[0]

    @property
    def uuid(self):
        return Ulid(self.rpartition("_")[2]).uuid


class DbDefault(Expression):
    """The keyword DEFAULT as an INSERT's value: the database fills the column."""

    def as_sql(self, compiler, connection):
        return "DEFAULT", []


class ConvertingAttribute(DeferredAttribute):
    """Runs to_python on assignment: Django 3.2 sets RETURNING's values unconverted."""

    def __set__(self, instance, value):
        if value is not None:
            value = self.field.to_python(value)
        instance.__dict__[self.field.attname] = value


class DbDefaultMixin:
    """A column whose DEFAULT mints the value on INSERT and RETURNING brings it back."""

    db_returning = True
    descriptor_class = ConvertingAttribute

    def pre_save(self, model_instance, add):
        value = super().pre_save(model_instance, add)
        return DbDefault() if add and value is None else value


class UuidV7Field(DbDefaultMixin, models.UUIDField):
    """uuid, DEFAULT uuid_v7() in the migration; reads as uuid.UUID."""


class SnowflakeField(DbDefaultMixin, models.BigIntegerField):
    """bigint, DEFAULT snowflake(n) or snowflake53(n) in the migration; reads as int."""


class IdgenTextField(DbDefaultMixin, models.Field):
    """An idgen type (or a domain over it) that psycopg2 reads as text."""

    base_type = value_class = None
    empty_strings_allowed = False  # an unset value is None, not ''

    def __init__(self, *args, type_name=None, prefix=None, **kwargs):
        self.type_name, self.prefix = type_name, prefix
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        for key in ("type_name", "prefix"):
            if getattr(self, key) is not None:
                kwargs[key] = getattr(self, key)
        return name, path, args, kwargs

    def db_type(self, connection):
        return self.type_name or self.base_type

    def to_python(self, value):
        if value is None or isinstance(value, self.value_class):
            return value
        try:
            value = self.value_class(value)
        except ValueError as e:
            raise ValidationError(str(e)) from e
        if self.prefix is not None and value.prefix != self.prefix:
            raise ValidationError(f"{value} does not have the prefix {self.prefix}")
        return value

    def from_db_value(self, value, expression, connection):
        return self.to_python(value)

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return None if value is None else str(self.to_python(value))


class UlidField(IdgenTextField):
    """ulid, DEFAULT ulid() in the migration; reads as Ulid."""

    base_type, value_class = "ulid", Ulid


class PrefixedIdField(IdgenTextField):
    """prefixed_id, or the domain type_name of prefixed_id_define(type_name, prefix)."""

    base_type, value_class = "prefixed_id", PrefixedId


class TypeIdField(IdgenTextField):
    """typeid, or the domain type_name of typeid_define(type_name, prefix)."""

    base_type, value_class = "typeid", TypeId
# README snippet ends
