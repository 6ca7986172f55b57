"""Django 5.2 with idgen.django: migrate (CreateExtension, the domains, the
db_default DEFAULTs) in a database without idgen, makemigrations clean after
it, values minted by the database and returned on save, filters, lookups and
expressions, forms, and migrating to zero and back."""
import os
import uuid
from datetime import datetime, timedelta, timezone

import pytest


@pytest.fixture(scope="module")
def django_db(bare_dbname):
    os.environ["IDGEN_DJANGO_DB"] = bare_dbname
    os.environ["DJANGO_SETTINGS_MODULE"] = "django_settings"
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    yield bare_dbname
    from django.db import connections
    connections.close_all()


def test_makemigrations_finds_nothing(django_db):
    from django.core.management import call_command
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # SystemExit(1) on a change


def test_system_checks(django_db):
    from django.core.management import call_command
    call_command("check", fail_level="WARNING")


def test_save_returns_the_minted_values(django_db):
    from idgen import ULID, PrefixedId, TypeId
    from idgen.decode import snowflake53_shard, snowflake_shard, uuid_v7_time
    from shop.models import Account, Click, Event, Member, Order
    account = Account.objects.create(name="Ada")
    member = Member.objects.create(email="ada@example.com")
    order = Order.objects.create(account=account, member=member)
    event = Event.objects.create(order=order, kind="paid")
    click = Click.objects.create()
    assert isinstance(account.id, PrefixedId) and account.id.prefix == "acct"
    assert isinstance(member.id, TypeId) and member.id.prefix == "user"
    assert isinstance(order.id, uuid.UUID) and uuid_v7_time(order.id) is not None
    assert isinstance(order.ref, ULID) and order.invite.prefix == "inv" and order.invite.time is None
    assert snowflake_shard(event.id) == 7 and snowflake53_shard(click.id) == 3
    assert click.trace.prefix == "trace"
    again = Order.objects.select_related("account", "member").get(ref=order.ref)
    assert (again.id, again.account.id, again.member.id, again.invite) == (order.id, account.id, member.id,
                                                                            order.invite)
    # bulk_create() reads back every db_default column but the primary key
    # (Django 5.2 sets RETURNING's primary key only for objects whose pk is None)
    bulk = Order.objects.bulk_create([Order(account=account), Order(account=account)])
    assert all(isinstance(o.ref, ULID) and isinstance(o.invite, PrefixedId) for o in bulk)
    assert len({o.ref for o in bulk}) == 2


def test_filters_and_parameters(django_db):
    from idgen import ULID
    from shop.models import Account, Order
    account = Account.objects.create(name="Bo")
    order = Order.objects.create(account=account)
    assert Order.objects.get(ref=str(order.ref)) == order
    assert Order.objects.get(ref=order.ref.to_uuid()) == order
    assert Order.objects.filter(ref__in=[order.ref]).count() == 1
    assert Order.objects.filter(account_id=str(account.id)).count() == 1
    new = ULID(uuid.uuid4())
    Order.objects.filter(pk=order.pk).update(ref=new)
    assert Order.objects.get(pk=order.pk).ref == new
    from django.core.exceptions import ValidationError
    with pytest.raises(ValidationError):
        Order.objects.filter(ref="not a ulid").count()


def test_time_lookups_and_expressions(django_db):
    from idgen.django.expressions import SnowflakeTime, UlidTime, UuidV7Time
    from shop.models import Account, Event, Order
    start = datetime.now(timezone.utc) - timedelta(seconds=1)
    order = Order.objects.create(account=Account.objects.create(name="Cy"))
    event = Event.objects.create(order=order, kind="x")
    later = datetime.now(timezone.utc) + timedelta(hours=1)
    assert order in Order.objects.filter(id__time_gte=start, id__time_lt=later)
    assert order not in Order.objects.filter(id__time_lt=start)
    assert Order.objects.filter(id__time_gte=later).count() == 0
    assert order in Order.objects.filter(ref__time_gte=start, ref__time_lt=later)
    assert order not in Order.objects.filter(ref__time_lt=start)
    assert event in Event.objects.filter(id__time_gte=start, id__time_lt=later)
    assert event not in Event.objects.filter(id__time_lt=start)
    assert Account.objects.filter(id__time_gte=start).count() >= 1
    got = Order.objects.annotate(t=UuidV7Time("id"), u=UlidTime("ref")).get(pk=order.pk)
    assert start <= got.t <= later and start <= got.u <= later
    epoch = datetime(2024, 1, 1, tzinfo=timezone.utc)
    e = Event.objects.annotate(t=SnowflakeTime("id"), t2=SnowflakeTime("id", epoch)).get(pk=event.pk)
    assert e.t == e.t2 and start <= e.t <= later


def test_readme_queries(django_db):
    from shop.models import Account, Order
    start = datetime.now(timezone.utc) - timedelta(minutes=1)
    Order.objects.create(account=Account.objects.create(name="Di"))
    end = datetime.now(timezone.utc) + timedelta(minutes=1)
    # README python begins
    from idgen.django.expressions import UlidTime, UuidV7Time

    recent = Order.objects.filter(id__time_gte=start, id__time_lt=end)  # id >= uuid_v7_boundary(start) ...
    for order in recent.annotate(created=UuidV7Time("id"), ref_time=UlidTime("ref")):
        assert start <= order.created < end and order.ref_time == order.ref.time
    # README python ends
    assert recent.count() >= 1


def test_ksuid_objectid_xid_lookups_and_expressions(django_db):
    # the bounds of a second: an ID minted in the second of start is time_gte=start
    from idgen import KSUID, XID, ObjectId
    from idgen.django.expressions import KsuidTime, ObjectIdTime, XidTime
    from shop.models import Import
    start = datetime.now(timezone.utc).replace(microsecond=0)
    row = Import.objects.create()
    assert (type(row.id), type(row.mongo_id), type(row.trace)) == (KSUID, ObjectId, XID)
    later = start + timedelta(hours=1)
    for field in ("id", "mongo_id", "trace"):
        assert Import.objects.filter(**{field + "__time_gte": start, field + "__time_lt": later}).get() == row
        assert not Import.objects.filter(**{field + "__time_lt": start}).exists()
        assert not Import.objects.filter(**{field + "__time_gte": later}).exists()
    got = Import.objects.annotate(k=KsuidTime("id"), o=ObjectIdTime("mongo_id"), x=XidTime("trace")).get()
    assert (got.k, got.o, got.x) == (row.id.time, row.mongo_id.time, row.trace.time)
    assert start <= got.k < later
    from django.core.exceptions import ValidationError
    with pytest.raises(ValidationError):
        Import.objects.filter(trace=str(row.trace).upper()).count()  # XID text is lowercase only
    assert Import.objects.get(mongo_id=str(row.mongo_id).upper()) == row  # hex in either case
    row.delete()
    # svix-ksuid's Ksuid as the key, PyMongo's ObjectId as a value
    import bson
    import ksuid
    theirs, their_oid = ksuid.Ksuid(), bson.ObjectId()
    Import.objects.create(id=theirs, mongo_id=their_oid)
    got = Import.objects.get(pk=theirs)
    assert (str(got.id), got.mongo_id.bytes) == (str(theirs), their_oid.binary)
    got.delete()


def test_forms_show_and_accept_text(django_db):
    from django import forms
    from shop.models import Account, Order

    class OrderForm(forms.ModelForm):
        class Meta:
            model = Order
            fields = ["ref", "account", "invite"]

    order = Order.objects.create(account=Account.objects.create(name="Di"))
    assert str(order.ref) in OrderForm(instance=order).as_p()
    other = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
    form = OrderForm({"ref": other.lower(), "account": str(order.account_id), "invite": str(order.invite)},
                     instance=order)
    assert form.is_valid(), form.errors
    form.save()
    assert str(Order.objects.get(pk=order.pk).ref) == other
    bad = OrderForm({"ref": other, "account": str(order.account_id), "invite": "acct_039srkj01e44uynszf2f2njh3"},
                    instance=order)
    assert not bad.is_valid() and "invite" in bad.errors


def test_admin_form(django_db):
    from django.contrib import admin
    from django.test import RequestFactory
    from shop.models import Order

    model_admin = admin.ModelAdmin(Order, admin.site)
    form_class = model_admin.get_form(RequestFactory().get("/"), fields=["ref", "invite"])
    assert set(form_class.base_fields) == {"ref", "invite"}
    assert not form_class({"ref": "nope", "invite": "nope"}).is_valid()


def test_migrate_to_zero_and_back(django_db):
    from django.core.management import call_command
    from django.db import connection
    call_command("migrate", "shop", "zero", verbosity=0)
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_type WHERE typname IN ('account_id', 'user_id')")
        assert cur.fetchone()[0] == 0
        cur.execute("SELECT count(*) FROM pg_extension WHERE extname = 'idgen'")
        assert cur.fetchone()[0] == 0
    call_command("migrate", "shop", verbosity=0)
    from shop.models import Account
    assert Account.objects.create(name="Ed").id.prefix == "acct"
