#!/usr/bin/python3
"""idgen from Django 3.2 (Debian's python3-django) over psycopg2, as an application uses it.

Runs the shop app's migrations (CreateExtension, prefixed_id_define()/typeid_define()
domains, column DEFAULTs) as the database's owner, a role that is not a superuser, inside
Django's migration transaction; then checks, for a uuid_v7() primary key, snowflake() and
snowflake53() keys, a ulid column, a prefixed_id_define() domain key and a typeid_define()
domain key, that the DEFAULT fires on save() and bulk_create(), that RETURNING brings the
value back as the field's Python type, and that rows filter, update and delete by it.
Connects with the PG* environment variables (PGUSER the database's owner). Prints its plan, then one
verdict line per check (test/lib/verdicts.py), which django.pl turns into TAP.
"""
import io
import os
import sys
import traceback
import uuid

sys.dont_write_bytecode = True  # the checkout is read-only for the test's user
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "lib"))
from verdicts import note, plan, say  # noqa: E402

import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.configure(
    DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ["PGDATABASE"],
        "USER": os.environ["PGUSER"],
        "HOST": os.environ["PGHOST"],
        "PORT": os.environ["PGPORT"],
    }},
    INSTALLED_APPS=["shop"],
    DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
    USE_TZ=True,
)
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import DatabaseError, connection, transaction  # noqa: E402
from django.db.models import F  # noqa: E402
from django.db.models.functions import Cast  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from shop.fields import PrefixedId, TypeId, Ulid, UlidField  # noqa: E402
from shop.models import Account, Click, Event, Member, Order  # noqa: E402


def one(sql, params=()):
    """The first row of SQL, read through Django's connection."""
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone()


def guarded(what, fn):
    """Runs a group of checks; an exception fails it with its traceback as notes."""
    try:
        fn()
    except Exception:  # noqa: BLE001
        say(False, f"{what}: no exception")
        note(traceback.format_exc())


def check_migrate():
    superuser, = one("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
    say(superuser is False and connection.settings_dict["USER"] == os.environ["PGDATABASE"],
        "Django connects as the database's owner, a role that is not a superuser")
    # Each statement's transaction id, asked on the same session right after it.
    statements = []

    def record(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        with connection.connection.cursor() as cur:
            cur.execute("SELECT txid_current_if_assigned()")
            statements.append((sql, connection.in_atomic_block, cur.fetchone()[0]))
        return result

    out = io.StringIO()
    with connection.execute_wrapper(record):
        call_command("migrate", "shop", stdout=out, no_color=True)
    say("Applying shop.0001_initial... OK" in out.getvalue(), "migrate applies shop.0001_initial")
    owner, = one("SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'idgen'")
    say(owner == os.environ["PGUSER"], "CreateExtension('idgen') created the extension, owned by the app's role")
    # (django_migrations, the history table, is created before, in a transaction of its own)
    migration = [s for s in statements
                 if s[0].lstrip().upper().startswith(("CREATE", "ALTER", "SELECT PREFIXED_ID_DEFINE",
                                                      "SELECT TYPEID_DEFINE"))
                 and "django_migrations" not in s[0]]
    xids = {xid for _, _, xid in migration}
    say(any("CREATE EXTENSION" in s[0] for s in migration) and len(migration) >= 10
        and len(xids) == 1 and None not in xids and all(atomic for _, atomic, _ in migration),
        "CREATE EXTENSION, the domains, tables and DEFAULTs ran in one transaction, in Django's atomic block")
    note(f"{len(migration)} migration statements, transaction ids {sorted(map(str, xids))}")
    defaults = dict(((t, c), d) for t, c, d in run_all(
        "SELECT c.relname, a.attname, pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d"
        " JOIN pg_class c ON c.oid = d.adrelid"
        " JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum"
        " WHERE c.relname LIKE 'shop\\_%%'"))
    say(defaults == {("shop_order", "id"): "uuid_v7()", ("shop_order", "ref"): "ulid()",
                     ("shop_event", "id"): "snowflake(7)", ("shop_click", "id"): "snowflake53(3)"},
        "the migration set the column DEFAULTs uuid_v7(), ulid(), snowflake(7), snowflake53(3)")
    note(repr(defaults))
    types = dict(run_all(
        "SELECT attrelid::regclass::text || '.' || attname, format_type(atttypid, atttypmod)"
        " FROM pg_attribute JOIN pg_class c ON c.oid = attrelid"
        " WHERE c.relkind = 'r' AND c.relname LIKE 'shop\\_%%' AND attnum > 0"
        " AND attname IN ('id', 'ref', 'account_id', 'member_id', 'order_id')"))
    say(types == {"shop_account.id": "account_id", "shop_member.id": "user_id",
                  "shop_order.id": "uuid", "shop_order.ref": "ulid",
                  "shop_order.account_id": "account_id", "shop_order.member_id": "user_id",
                  "shop_event.id": "bigint", "shop_event.order_id": "uuid", "shop_click.id": "bigint"},
        "the columns, foreign keys too, have idgen's types and the defined domains")
    note(repr(types))
    out = io.StringIO()
    try:
        call_command("makemigrations", "shop", check=True, dry_run=True, stdout=out, no_color=True)
        clean = True
    except SystemExit:
        clean = False
    say(clean and "No changes detected" in out.getvalue(),
        "makemigrations --check --dry-run finds no change after migrate")
    if not clean:
        note(out.getvalue())
    out = io.StringIO()
    call_command("check", stdout=out)
    say("no issues" in out.getvalue(), "Django's system checks find no issue with the fields")


def run_all(sql, params=()):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchall()


def inserts_with_default(queries, table, column):
    """Whether an INSERT of the captured queries sent DEFAULT for column and has RETURNING."""
    for q in queries:
        sql = q["sql"]
        if sql.startswith(f'INSERT INTO "{table}"') and "RETURNING" in sql:
            names = sql[sql.index("(") + 1:sql.index(")")].replace('"', "").split(", ")
            values = sql[sql.index("VALUES (") + 8:].split(")")[0].split(", ")
            return values[names.index(column)] == "DEFAULT"
    return False


def exercise(label, model, field, kind, decoded, make, text_field, new_value=None):
    """The checks of one family: model.field is filled by its DEFAULT.

    kind is the Python type it must read as; decoded is SQL (one %s, the value's text) that
    is true when the server reads the value as this family's (shard, version, prefix);
    make(**kwargs) builds an unsaved instance; text_field is a column to update.
    """
    table, column = model._meta.db_table, model._meta.get_field(field).column
    with CaptureQueriesContext(connection) as queries:
        obj = make()
        obj.save()
    value = getattr(obj, field)
    say(isinstance(value, kind) and inserts_with_default(queries.captured_queries, table, column),
        f"{label}: save() sends DEFAULT and RETURNING gives it back as {kind.__name__}")
    note(f"{label}: {value!r}")
    text, ok = one(f'SELECT "{column}"::text, {decoded} FROM {table} WHERE "{column}" = %s',
                   [str(value), str(value)])
    say(text == str(value) and ok, f"{label}: the value save() got is the row's, minted by the DEFAULT")

    with CaptureQueriesContext(connection) as queries:
        batch = model.objects.bulk_create([make() for _ in range(3)])
    values = [getattr(o, field) for o in batch]
    say(all(isinstance(v, kind) for v in values) and len(set(values)) == 3 and value not in values
        and inserts_with_default(queries.captured_queries, table, column),
        f"{label}: bulk_create() sends DEFAULT and RETURNING gives each row's own value")

    loaded = model.objects.get(**{field: value})
    say(loaded.pk == obj.pk and isinstance(getattr(loaded, field), kind) and getattr(loaded, field) == value,
        f"{label}: filter by the value finds the row and reads it as {kind.__name__}")
    say(model.objects.filter(**{f"{field}__in": values}).count() == 3
        and model.objects.filter(**{f"{field}__gt": value}).count() >= 3,
        f"{label}: filter with __in and __gt (the type's order) find the bulk_create() rows")

    n = model.objects.filter(**{field: values[0]}).update(**{text_field: "updated"})
    obj_text = getattr(model.objects.get(**{field: values[0]}), text_field)
    setattr(loaded, text_field, "saved")
    loaded.save()
    say(n == 1 and obj_text == "updated"
        and getattr(model.objects.get(**{field: value}), text_field) == "saved"
        and model.objects.filter(**{text_field: "saved"}).count() == 1,
        f"{label}: update() and save() of a loaded row change the row found by the value")
    if new_value is not None:
        fresh = new_value()
        n = model.objects.filter(**{field: values[1]}).update(**{field: fresh})
        say(n == 1 and model.objects.filter(**{field: fresh}).count() == 1
            and not model.objects.filter(**{field: values[1]}).exists(),
            f"{label}: update() sets a new {kind.__name__} and filter finds it")
        values[1] = fresh

    deleted, _ = model.objects.filter(**{field: values[2]}).delete()
    obj.delete()
    say(deleted >= 1 and not model.objects.filter(**{f"{field}__in": [value, values[2]]}).exists()
        and model.objects.filter(**{f"{field}__in": values[:2]}).count() == 2,
        f"{label}: delete() by the value removes that row only")


def check_families():
    account = Account.objects.create(name="first")
    member = Member.objects.create(email="ada@example.com")
    order = Order.objects.create(account=account, member=member)

    guarded("prefixed_id domain key", lambda: exercise(
        "Account.id (account_id, prefixed_id_define)", Account, "id", PrefixedId,
        "prefixed_id_prefix(id) = 'acct' AND prefixed_id_uuid(id) = %s::account_id::uuid",
        lambda: Account(name="a"), "name"))
    guarded("typeid domain key", lambda: exercise(
        "Member.id (user_id, typeid_define)", Member, "id", TypeId,
        "typeid_prefix(id) = 'user' AND typeid_time(id) IS NOT NULL AND id = %s::user_id",
        lambda: Member(email="m@example.com"), "email"))
    guarded("uuid_v7 key", lambda: exercise(
        "Order.id (uuid DEFAULT uuid_v7())", Order, "id", uuid.UUID,
        "uuid_v7_time(id) IS NOT NULL AND id = %s::uuid",
        lambda: Order(account=account), "status"))
    guarded("ulid column", lambda: exercise(
        "Order.ref (ulid DEFAULT ulid())", Order, "ref", Ulid,
        "abs(extract(epoch FROM now() - ulid_time(ref))) < 600 AND ref = %s::ulid",
        lambda: Order(account=account), "status",
        new_value=lambda: Ulid(one("SELECT ulid()::text")[0])))
    guarded("snowflake key", lambda: exercise(
        "Event.id (bigint DEFAULT snowflake(7))", Event, "id", int,
        "snowflake_shard(id) = 7 AND id = %s::bigint AND id >= 2^53",
        lambda: Event(order=order, kind="paid"), "kind"))
    guarded("snowflake53 key", lambda: exercise(
        "Click.id (bigint DEFAULT snowflake53(3))", Click, "id", int,
        "snowflake53_shard(id) = 3 AND id = %s::bigint AND id < 2^53",
        lambda: Click(url="/"), "url"))

    def values_decode():
        o = Order.objects.create(account=account)
        say(o.ref.uuid == one("SELECT ref::uuid FROM shop_order WHERE id = %s", [o.id])[0]
            and account.id.uuid == one("SELECT prefixed_id_uuid(%s::account_id)", [account.id])[0]
            and member.id.uuid == one("SELECT typeid_uuid(%s::user_id)", [member.id])[0]
            and account.id.prefix == "acct" and member.id.prefix == "user",
            "Ulid, PrefixedId and TypeId decode to the 128 bits the server reads (ulid::uuid, "
            "prefixed_id_uuid, typeid_uuid)")
    guarded("value classes", values_decode)

    def foreign_keys():
        event = Event.objects.create(order=order, kind="shipped")
        e = Event.objects.select_related("order__account", "order__member").get(pk=event.pk)
        say(isinstance(e.order.id, uuid.UUID) and isinstance(e.order.ref, Ulid)
            and isinstance(e.order.account.id, PrefixedId) and isinstance(e.order.member_id, TypeId)
            and e.order.account_id == account.id and e.order.member.id == member.id,
            "select_related() through the foreign keys reads every key as its Python type")
        events, = one("SELECT count(*) FROM shop_event WHERE order_id = %s", [order.id])
        say(list(Order.objects.filter(account=account, member=member).values_list("id", flat=True))
            == [order.id] and events >= 1
            and Event.objects.filter(order__account=account, order__ref=order.ref).count() == events,
            "filter by foreign keys of account_id, user_id and uuid, and by a ulid across a join")
        member.delete()  # SET_NULL by the typeid key
        account.delete()  # CASCADE to the orders and their events, by account_id and uuid keys
        say(not Order.objects.filter(account_id=account.id).exists()
            and not Event.objects.filter(pk=event.pk).exists()
            and not Account.objects.filter(pk=account.pk).exists(),
            "deleting an Account cascades through account_id and uuid foreign keys")
    guarded("foreign keys", foreign_keys)

    def legacy_text():
        # A ULID kept as text by an older system, copied into the ulid column.
        o = Order.objects.create(account=Account.objects.create(name="legacy"))
        text = one("SELECT lower(ulid()::text)")[0]
        Order.objects.filter(pk=o.pk).update(legacy_ref=text)
        Order.objects.filter(pk=o.pk).update(ref=Cast(F("legacy_ref"), output_field=UlidField()))
        say(Order.objects.get(pk=o.pk).ref == Ulid(text),
            "update(ref=Cast(F('legacy_ref'), UlidField())) copies varchar text into the ulid column")
        # Since 0.7.0 varchar casts to ulid by assignment: no Cast needed.
        try:
            with transaction.atomic():
                Order.objects.filter(pk=o.pk).update(ref=F("legacy_ref"))
            error = None
        except DatabaseError as e:
            error = getattr(e.__cause__, "pgcode", None) or str(e)
        if not say(error is None and Order.objects.get(pk=o.pk).ref == Ulid(text),
                   "update(ref=F('legacy_ref')) without Cast copies it too (assignment cast varchar -> ulid)"):
            note(f"refused: {error}")
    guarded("varchar into ulid", legacy_text)

    def bulk_update():
        # CASE WHEN pk = ... THEN value ... END, cast to the column's type (Django does that on PostgreSQL)
        accounts = Account.objects.bulk_create([Account(name="x"), Account(name="y")])
        orders = Order.objects.bulk_create([Order(account=a) for a in accounts])
        for a in accounts:
            a.name = f"renamed {a.id}"
        fresh = [Ulid(t) for t, in run_all("SELECT ulid()::text FROM generate_series(1, 2)")]
        for o, ref in zip(orders, fresh):
            o.ref = ref
        Account.objects.bulk_update(accounts, ["name"])
        Order.objects.bulk_update(orders, ["ref"])
        say([Account.objects.get(pk=a.id).name for a in accounts] == [f"renamed {a.id}" for a in accounts]
            and [Order.objects.get(pk=o.id).ref for o in orders] == fresh,
            "bulk_update() by account_id and uuid keys, and of a ulid column")
    guarded("bulk_update", bulk_update)


def check_reverse():
    out = io.StringIO()
    call_command("migrate", "shop", "zero", stdout=out, no_color=True)
    gone = one("SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen'),"
               " (SELECT count(*) FROM pg_type WHERE typname IN ('account_id', 'user_id')),"
               " to_regclass('shop_order') IS NULL")
    call_command("migrate", "shop", stdout=out, no_color=True)
    back = Order.objects.create(account=Account.objects.create(name="again"))
    say(gone == (0, 0, True) and isinstance(back.ref, Ulid) and isinstance(back.account_id, PrefixedId),
        "migrate shop zero drops tables, domains and extension; migrating again works")


def main():
    # check_migrate's 8; exercise's 7 for each of 6 families, and 1 more for
    # the one with new_value (ulid); the other family checks' 7; check_reverse's 1
    plan(8 + 6 * 7 + 1 + 7 + 1)
    guarded("migrate", check_migrate)
    guarded("the families", check_families)
    guarded("reverse migration", check_reverse)
    return 0


if __name__ == "__main__":
    sys.exit(main())
