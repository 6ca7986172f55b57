# README snippet begins
from django.db import models

from idgen.django.fields import (PrefixedIdField, Snowflake53Field, SnowflakeField, TypeIdField,
                                 ULIDField, UUIDv7Field)


class Account(models.Model):
    id = PrefixedIdField("account_id", "acct", primary_key=True)
    name = models.CharField(max_length=100)


class Member(models.Model):
    id = TypeIdField("user_id", "user", primary_key=True)
    email = models.CharField(max_length=100)


class Order(models.Model):
    id = UUIDv7Field(primary_key=True)
    ref = ULIDField(unique=True)
    account = models.ForeignKey(Account, on_delete=models.CASCADE)
    member = models.ForeignKey(Member, null=True, on_delete=models.SET_NULL)
    invite = PrefixedIdField(prefix="inv", token=True)


class Event(models.Model):
    id = SnowflakeField(primary_key=True, shard=7)
    order = models.ForeignKey(Order, on_delete=models.CASCADE)
    kind = models.CharField(max_length=20)


class Click(models.Model):
    id = Snowflake53Field(primary_key=True, shard=3)
    trace = TypeIdField(prefix="trace")
# README snippet ends


# README python begins
from idgen.django.fields import KSUIDField, ObjectIdField, XIDField


class Import(models.Model):
    id = KSUIDField(primary_key=True)       # ksuid DEFAULT ksuid()
    mongo_id = ObjectIdField(unique=True)   # objectid DEFAULT objectid(); takes a bson.ObjectId
    trace = XIDField()                      # rsxid DEFAULT xid()
    order = models.ForeignKey(Order, null=True, on_delete=models.SET_NULL)
# README python ends
