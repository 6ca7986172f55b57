"""A small shop keyed by every idgen family; the DEFAULTs live in migrations/0001_initial.py."""
# README snippet begins
from django.db import models

from .fields import PrefixedIdField, SnowflakeField, TypeIdField, UlidField, UuidV7Field


class Account(models.Model):
    id = PrefixedIdField(primary_key=True, type_name="account_id", prefix="acct")  # domain DEFAULT
    name = models.CharField(max_length=100)


class Member(models.Model):
    id = TypeIdField(primary_key=True, type_name="user_id", prefix="user")  # domain DEFAULT
    email = models.CharField(max_length=100)


class Order(models.Model):
    id = UuidV7Field(primary_key=True)  # DEFAULT uuid_v7()
    ref = UlidField(unique=True)  # DEFAULT ulid()
    account = models.ForeignKey(Account, on_delete=models.CASCADE)
    member = models.ForeignKey(Member, null=True, on_delete=models.SET_NULL)
    legacy_ref = models.CharField(max_length=26, blank=True, default="")
    status = models.CharField(max_length=20, default="new")


class Event(models.Model):
    id = SnowflakeField(primary_key=True)  # DEFAULT snowflake(7)
    order = models.ForeignKey(Order, on_delete=models.CASCADE)
    kind = models.CharField(max_length=20)


class Click(models.Model):
    id = SnowflakeField(primary_key=True)  # DEFAULT snowflake53(3)
    url = models.CharField(max_length=200)
# README snippet ends
