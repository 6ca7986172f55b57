"""Django's own workflow with idgen.django, as an application runs it: the
django-admin commands (migrate, makemigrations --check, check, migrate shop
zero) on the shop app, as the database's owner, a role that is not a
superuser; the migration in one transaction; the columns' types, domains and
DEFAULTs in the catalog; then, through the ORM as that role, every key kind
minted by its DEFAULT on save() and bulk_create(), found, ordered, updated and
deleted by its value, the value classes' bits against the server's,
select_related() and cascades through the foreign keys, varchar text copied
into a ulid column and bulk_update(); the ksuid, objectid and rsxid columns
of the second migration (makemigrations's, unedited) the same way, with
PyMongo's bson.ObjectId as a value."""
import os
import subprocess
import sys
import uuid

import pytest

from idgen import KSUID, ULID, XID, ObjectId, PrefixedId, TypeId

TESTS = os.path.dirname(os.path.abspath(__file__))


def django_admin(db, *args):
    """`django-admin ARGS` with the tests' settings, as the database's owner; its stdout."""
    done = subprocess.run(
        [sys.executable, "-m", "django", *args, "--settings=django_settings", "--pythonpath=" + TESTS,
         "--no-color"],
        env=dict(os.environ, PGUSER=db, IDGEN_DJANGO_DB=db), capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def migrated(owner_dbname):
    django_admin(owner_dbname, "migrate")
    return owner_dbname


@pytest.fixture(scope="module")
def orm(migrated):
    """Django's connection, on the migrated database as its owner (what
    Django's own test runner does to point it at a test database)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "django_settings")
    import django
    django.setup()
    from django.db import connection
    before = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(NAME=migrated, USER=migrated)
    yield connection
    connection.close()
    connection.settings_dict.clear()
    connection.settings_dict.update(before)


def one(connection, sql, params=()):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone()


def test_migrate_as_the_owner_in_one_transaction(migrated, orm):
    superuser, owner = one(orm, "SELECT rolsuper, (SELECT extowner::regrole::text FROM pg_extension"
                                " WHERE extname = 'idgen') FROM pg_roles WHERE rolname = current_user")
    assert (superuser, owner) == (False, migrated)
    # CREATE EXTENSION, the domains, the tables and the foreign keys (Django's
    # deferred SQL, run as its atomic block ends) were written by one transaction
    # (0001's: 0002's shop_import is another migration, another transaction)
    writers, rows = one(orm, "SELECT count(DISTINCT x), count(*) FROM ("
                             " SELECT xmin::text x FROM pg_extension WHERE extname = 'idgen'"
                             " UNION ALL SELECT xmin::text FROM pg_type WHERE typname IN ('account_id', 'user_id')"
                             " UNION ALL SELECT xmin::text FROM pg_class WHERE relkind = 'r'"
                             " AND relname LIKE 'shop\\_%%' AND relname <> 'shop_import'"
                             " UNION ALL SELECT xmin::text FROM pg_constraint WHERE contype = 'f'"
                             " AND conrelid::regclass::text LIKE 'shop\\_%%'"
                             " AND conrelid <> 'shop_import'::regclass) s")
    assert (writers, rows) == (1, 1 + 2 + 5 + 3)
    shown = django_admin(migrated, "showmigrations", "shop")
    assert "[X] 0001_initial" in shown and "[X] 0002_imports" in shown


def test_makemigrations_check_finds_no_change(migrated):
    assert "No changes detected" in django_admin(migrated, "makemigrations", "--check", "--dry-run")


def test_system_checks_find_no_issue(migrated):
    assert "no issues" in django_admin(migrated, "check", "--fail-level", "WARNING")


def catalog(orm):
    """(table, column, type, DEFAULT) of the shop's columns, its varchar and text ones aside."""
    with orm.cursor() as cur:
        cur.execute(
            "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid)"
            " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
            " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
            " WHERE c.relkind = 'r' AND c.relname LIKE 'shop\\_%%' AND a.attnum > 0"
            " AND a.atttypid NOT IN ('varchar'::regtype, 'text'::regtype)")
        return cur.fetchall()


def test_columns_have_idgen_types_and_domains(orm):
    columns = {(table, column): (type_, default) for table, column, type_, default in catalog(orm)}
    assert columns == {
        ("shop_account", "id"): ("account_id", "prefixed_id_new('acct'::text)"),
        ("shop_member", "id"): ("user_id", "typeid_new('user'::text)"),
        ("shop_order", "id"): ("uuid", "uuid_v7()"),
        ("shop_order", "ref"): ("ulid", "ulid()"),
        ("shop_order", "invite"): ("prefixed_id", "prefixed_id_token('inv'::text)"),
        # foreign keys to domain keys are of the base type, without a DEFAULT
        ("shop_order", "account_id"): ("prefixed_id", None),
        ("shop_order", "member_id"): ("typeid", None),
        ("shop_event", "id"): ("bigint", "snowflake(7)"),
        ("shop_event", "order_id"): ("uuid", None),
        ("shop_click", "id"): ("bigint", "snowflake53(3)"),
        ("shop_click", "trace"): ("typeid", "typeid_new('trace'::text)"),
        ("shop_import", "id"): ("ksuid", "ksuid()"),
        ("shop_import", "mongo_id"): ("objectid", "objectid()"),
        ("shop_import", "trace"): ("rsxid", "xid()"),
        ("shop_import", "order_id"): ("uuid", None),
    }


class Family:
    """One key kind of the shop app: model.field, the server's test of a minted
    value (SQL true for the row), and how to make a row."""

    def __init__(self, label, model, field, kind, decoded):
        self.label, self.model_name, self.field, self.kind, self.decoded = label, model, field, kind, decoded

    @property
    def model(self):
        from shop import models
        return getattr(models, self.model_name)

    @property
    def primary_key(self):
        return self.model._meta.pk.name == self.field

    def make(self):
        """An unsaved row, its foreign keys saved."""
        from shop.models import Account, Click, Event, Import, Member, Order
        if self.model is Import:
            return Import()
        if self.model is Account:
            return Account(name="a")
        if self.model is Member:
            return Member(email="m@example.com")
        if self.model is Click:
            return Click()
        account = Account.objects.create(name="o")
        if self.model is Order:
            return Order(account=account)
        return Event(order=Order.objects.create(account=account), kind="paid")

    def __repr__(self):
        return self.label


FAMILIES = [
    Family("account_id", "Account", "id", PrefixedId,
           "prefixed_id_prefix(id) = 'acct' AND prefixed_id_time(id) IS NOT NULL"),
    Family("user_id", "Member", "id", TypeId, "typeid_prefix(id) = 'user' AND typeid_time(id) IS NOT NULL"),
    Family("uuid_v7", "Order", "id", uuid.UUID, "uuid_v7_time(id) IS NOT NULL"),
    Family("ulid", "Order", "ref", ULID, "abs(extract(epoch FROM now() - ulid_time(ref))) < 600"),
    Family("prefixed_id token", "Order", "invite", PrefixedId, "prefixed_id_prefix(invite) = 'inv'"),
    Family("snowflake", "Event", "id", int, "snowflake_shard(id) = 7 AND id >= 2^53"),
    Family("snowflake53", "Click", "id", int, "snowflake53_shard(id) = 3 AND id < 2^53"),
    Family("typeid", "Click", "trace", TypeId,
           "typeid_prefix(trace) = 'trace' AND typeid_time(trace) IS NOT NULL"),
    Family("ksuid", "Import", "id", KSUID, "abs(extract(epoch FROM now() - ksuid_time(id))) < 600"),
    Family("objectid", "Import", "mongo_id", ObjectId,
           "abs(extract(epoch FROM now() - objectid_time(mongo_id))) < 600"),
    Family("xid", "Import", "trace", XID, "abs(extract(epoch FROM now() - xid_time(trace))) < 600"),
]
NOT_KEYS = [f for f in FAMILIES if f.field != "id"]


def inserts_default(queries, family):
    """Whether the captured INSERTs into the family's table send DEFAULT for its
    column and read it back with RETURNING: (how many INSERTs, all of them did)."""
    table, column = family.model._meta.db_table, family.model._meta.get_field(family.field).column
    inserts = [q["sql"] for q in queries if q["sql"].startswith(f'INSERT INTO "{table}"')]

    def sends(sql):
        names = sql[sql.index("(") + 1:sql.index(")")].replace('"', "").split(", ")
        rows = sql[sql.index(" VALUES ") + 8:sql.index(" RETURNING ")]
        first = rows[1:rows.index(")")].split(", ")
        return first[names.index(column)] == "DEFAULT" and f'"{column}"' in sql[sql.index(" RETURNING "):]
    return len(inserts), all(sends(sql) for sql in inserts)


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_save_sends_default_and_gets_the_rows_value(orm, family):
    from django.test.utils import CaptureQueriesContext
    row = family.make()
    with CaptureQueriesContext(orm) as queries:
        row.save()
    assert inserts_default(queries.captured_queries, family) == (1, True)
    value = getattr(row, family.field)
    assert type(value) is family.kind
    column = family.model._meta.get_field(family.field).column
    text, decoded = one(orm, f'SELECT "{column}"::text, {family.decoded} FROM {family.model._meta.db_table}'
                             f' WHERE "{column}" = %s', [str(value)])
    assert (text, decoded) == (str(value), True)


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_bulk_create_mints_each_rows_value(orm, family):
    from django.test.utils import CaptureQueriesContext
    model = family.model
    before = set(model.objects.values_list("pk", flat=True))
    made = [family.make() for _ in range(3)]
    with CaptureQueriesContext(orm) as queries:
        batch = model.objects.bulk_create(made)
    assert inserts_default(queries.captured_queries, family) == (1, True)
    stored = [getattr(r, family.field) for r in model.objects.exclude(pk__in=before)]
    assert len(set(stored)) == 3 and all(type(v) is family.kind for v in stored)
    if family.primary_key:
        # Django 5.2 sets RETURNING's primary key only on objects whose pk is None
        assert not any(isinstance(r.pk, family.kind) for r in batch)
    else:
        assert sorted(getattr(r, family.field) for r in batch) == sorted(stored)


def saved(family, n):
    rows = [family.make() for _ in range(n)]
    for row in rows:
        row.save()
    return [getattr(row, family.field) for row in rows]


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_filters_by_the_value_in_the_servers_order(orm, family):
    model, field = family.model, family.field
    values = saved(family, 4)
    found = model.objects.get(**{field: values[0]})
    assert type(getattr(found, field)) is family.kind and getattr(found, field) == values[0]
    assert model.objects.filter(**{f"{field}__in": values[1:]}).count() == 3
    # the value classes order as the server does (a token's random bits too)
    middle = sorted(values)[1]
    above = model.objects.filter(**{f"{field}__in": values, f"{field}__gt": middle})
    assert sorted(getattr(r, field) for r in above) == sorted(v for v in values if v > middle)
    assert len(above) == 2


def changes(family):
    """Another column of the family's model and two values for it."""
    from shop.models import Member
    if family.model_name == "Account":
        return "name", "updated", "saved"
    if family.model_name == "Member":
        return "email", "updated@example.com", "saved@example.com"
    if family.model_name == "Event":
        return "kind", "updated", "saved"
    if family.model_name == "Click":
        return "trace", TypeId("trace", uuid.uuid4()), TypeId("trace", uuid.uuid4())
    if family.model_name == "Import":
        from shop.models import Account, Order
        return "order", Order.objects.create(account=Account.objects.create(name="imported")), None
    return "member", Member.objects.create(email="u@example.com"), None


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.label != "typeid"], ids=repr)
def test_update_and_save_change_the_row_found_by_the_value(orm, family):
    model, field = family.model, family.field
    column, updated, saved_value = changes(family)
    first, second = saved(family, 2)
    assert model.objects.filter(**{field: first}).update(**{column: updated}) == 1
    assert getattr(model.objects.get(**{field: first}), column) == updated
    loaded = model.objects.get(**{field: second})
    setattr(loaded, column, saved_value)
    loaded.save()
    assert getattr(model.objects.get(**{field: second}), column) == saved_value
    assert getattr(model.objects.get(**{field: first}), column) == updated


GENERATORS = {ULID: "ulid()", KSUID: "ksuid()", ObjectId: "objectid()", XID: "xid()"}


def fresh(family, orm):
    if family.kind in GENERATORS:
        return family.kind(one(orm, "SELECT %s::text" % GENERATORS[family.kind])[0])
    return family.kind(family.model._meta.get_field(family.field).prefix, uuid.uuid4())


@pytest.mark.parametrize("family", NOT_KEYS, ids=repr)
def test_update_sets_a_new_value(orm, family):
    model, field = family.model, family.field
    old, = saved(family, 1)
    new = fresh(family, orm)
    assert model.objects.filter(**{field: old}).update(**{field: new}) == 1
    assert model.objects.filter(**{field: new}).count() == 1 and not model.objects.filter(**{field: old}).exists()


@pytest.mark.parametrize("family", FAMILIES, ids=repr)
def test_delete_by_the_value_removes_that_row_only(orm, family):
    model, field = family.model, family.field
    values = saved(family, 3)
    deleted, _ = model.objects.filter(**{field: values[0]}).delete()
    assert deleted >= 1
    assert list(model.objects.filter(**{f"{field}__in": values}).values_list(field, flat=True).order_by(field)) \
        == sorted(values[1:])


def test_value_classes_hold_the_servers_bits(orm):
    from shop.models import Account, Click, Member, Order
    order = Order.objects.create(account=Account.objects.create(name="bits"),
                                 member=Member.objects.create(email="bits@example.com"))
    click = Click.objects.create()
    server = one(orm, "SELECT o.ref::uuid, prefixed_id_uuid(o.account_id), typeid_uuid(o.member_id),"
                      " prefixed_id_uuid(o.invite), typeid_uuid(c.trace) FROM shop_order o, shop_click c"
                      " WHERE o.id = %s AND c.id = %s", [order.id, click.id])
    values = (order.ref, order.account_id, order.member_id, order.invite, click.trace)
    assert tuple(uuid.UUID(bytes=v.bytes) for v in values) == server
    assert (order.account_id.prefix, order.member_id.prefix, order.invite.prefix, click.trace.prefix) == (
        "acct", "user", "inv", "trace")


def test_raw_values_hold_the_servers_bytes(orm):
    from shop.models import Import
    row = Import.objects.create()
    server = one(orm, "SELECT id::bytea, mongo_id::bytea, trace::bytea, ksuid_payload(id), objectid_counter(mongo_id),"
                      " xid_pid(trace) FROM shop_import WHERE id = %s", [str(row.id)])
    assert tuple(bytes(b) for b in server[:3]) == (row.id.bytes, row.mongo_id.bytes, row.trace.bytes)
    assert (bytes(server[3]), server[4], server[5]) == (row.id.payload, row.mongo_id.counter, row.trace.pid)


def test_bson_objectid_in_and_out(orm):
    # PyMongo's bson.ObjectId as a value to store and to filter by; back with bson.ObjectId(value.bytes)
    import bson
    from shop.models import Import
    theirs = bson.ObjectId()
    row = Import.objects.create(mongo_id=theirs)
    assert Import.objects.filter(mongo_id=theirs).get().pk == row.pk
    assert one(orm, "SELECT mongo_id::text FROM shop_import WHERE id = %s", [str(row.pk)])[0] == str(theirs)
    assert bson.ObjectId(Import.objects.get(pk=row.pk).mongo_id.bytes) == theirs


def test_select_related_filters_and_cascades_through_the_foreign_keys(orm):
    from shop.models import Account, Event, Member, Order
    account, member = Account.objects.create(name="fk"), Member.objects.create(email="fk@example.com")
    order = Order.objects.create(account=account, member=member)
    event = Event.objects.create(order=order, kind="shipped")
    got = Event.objects.select_related("order__account", "order__member").get(pk=event.pk)
    assert (type(got.order.id), type(got.order.ref), type(got.order.account.id), type(got.order.member.id)) == (
        uuid.UUID, ULID, PrefixedId, TypeId)
    assert (got.order.account_id, got.order.member_id) == (account.id, member.id)
    assert list(Order.objects.filter(account=account, member=member).values_list("id", flat=True)) == [order.id]
    assert list(Event.objects.filter(order__account=account, order__ref=order.ref)) == [event]
    member.delete()  # SET_NULL by the typeid key
    assert Order.objects.get(pk=order.pk).member_id is None
    account.delete()  # CASCADE by the account_id key, then by the uuid key
    assert not Order.objects.filter(pk=order.pk).exists() and not Event.objects.filter(pk=event.pk).exists()


@pytest.mark.parametrize("cast", [True, False], ids=["with Cast", "without Cast"])
def test_varchar_text_into_a_ulid_column(orm, cast):
    # A ULID kept as text by an older system (in a varchar column), copied into
    # the ulid column; without Cast, by the assignment cast varchar -> ulid.
    from django.db.models import OuterRef, Subquery
    from django.db.models.functions import Cast

    from idgen.django.fields import ULIDField
    from shop.models import Account, Order
    text = one(orm, "SELECT lower(ulid()::text)")[0]
    order = Order.objects.create(account=Account.objects.create(name=text))
    legacy = Subquery(Account.objects.filter(pk=OuterRef("account_id")).values("name"))
    assert Order.objects.filter(pk=order.pk).update(ref=Cast(legacy, ULIDField()) if cast else legacy) == 1
    assert Order.objects.get(pk=order.pk).ref == ULID(text)


def test_bulk_update_by_each_key_kind(orm):
    # Django's CASE WHEN pk = ... THEN ... END, cast to the column's type
    from shop.models import Account, Click, Member, Order
    accounts = [Account.objects.create(name="x"), Account.objects.create(name="y")]
    members = [Member.objects.create(email="x@example.com"), Member.objects.create(email="y@example.com")]
    orders = [Order.objects.create(account=a) for a in accounts]
    clicks = [Click.objects.create(), Click.objects.create()]
    refs = [ULID(t) for t, in run_all(orm, "SELECT ulid()::text FROM generate_series(1, 2)")]
    traces = [TypeId("trace", uuid.uuid4()) for _ in clicks]
    for a, m, o, c, ref, trace in zip(accounts, members, orders, clicks, refs, traces):
        a.name, m.email, o.ref, c.trace = "renamed %s" % a.id, "renamed@example.com", ref, trace
    assert Account.objects.bulk_update(accounts, ["name"]) == 2
    assert Member.objects.bulk_update(members, ["email"]) == 2
    assert Order.objects.bulk_update(orders, ["ref"]) == 2
    assert Click.objects.bulk_update(clicks, ["trace"]) == 2
    assert [Account.objects.get(pk=a.pk).name for a in accounts] == ["renamed %s" % a.id for a in accounts]
    assert [Member.objects.get(pk=m.pk).email for m in members] == ["renamed@example.com"] * 2
    assert [Order.objects.get(pk=o.pk).ref for o in orders] == refs
    assert [Click.objects.get(pk=c.pk).trace for c in clicks] == traces


def run_all(connection, sql, params=()):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchall()


def test_migrate_shop_zero_and_again(migrated, orm):
    orm.close()  # the commands drop what this session has cached
    django_admin(migrated, "migrate", "shop", "zero")
    gone = one(orm, "SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen'),"
                    " (SELECT count(*) FROM pg_type WHERE typname IN ('account_id', 'user_id')),"
                    " (SELECT count(*) FROM pg_class WHERE relname LIKE 'shop\\_%%')")
    orm.close()
    assert gone == (0, 0, 0)
    django_admin(migrated, "migrate", "shop")
    from shop.models import Account, Order
    again = Order.objects.create(account=Account.objects.create(name="again"))
    assert type(again.ref) is ULID and type(again.account_id) is PrefixedId
