"""Django's own scaffolding with idgen.django: `django startproject` and
`manage.py startapp`, then only the README's steps (its lines at the end of
settings.py, the app's models.py). makemigrations writes CreateExtension and
the DefinePrefixedId/DefineTypeId operations, unedited; migrate applies them
as the database's owner, a role that is not a superuser; the catalog has the
extension, the domains and the columns' types and DEFAULTs; the ORM mints and
reads rows; makemigrations --check finds nothing; a model with a new domain
gets a migration with only that domain's operation; `migrate helpdesk zero`
leaves nothing."""
import json
import os
import re
import subprocess
import sys

import psycopg
import pytest

# What the README has settings.py end with, and the app's models.py: the test
# applies these blocks as they are.
SETTINGS = '''
# README python begins
import os

INSTALLED_APPS += ["idgen.django", "helpdesk"]
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": os.environ["PGDATABASE"]}}
# README python ends
'''

MODELS = '''
# README python begins
from django.db import models

from idgen.django.fields import PrefixedIdField, SnowflakeField, TypeIdField, ULIDField


class Account(models.Model):
    id = PrefixedIdField("account_id", "acct", primary_key=True)
    name = models.CharField(max_length=100)


class Agent(models.Model):
    id = TypeIdField("user_id", "user", primary_key=True)
    email = models.CharField(max_length=100)


class Ticket(models.Model):
    id = SnowflakeField(primary_key=True, shard=1)
    ref = ULIDField(unique=True)
    account = models.ForeignKey(Account, on_delete=models.CASCADE)
    agent = models.ForeignKey(Agent, null=True, on_delete=models.SET_NULL)
# README python ends
'''

COUPON = '''

class Coupon(models.Model):
    code = PrefixedIdField("coupon_code", "cpn", token=True, unique=True)
    account = models.ForeignKey(Account, on_delete=models.CASCADE)
'''


class Project:
    """A project made by `django startproject mysite .` and `manage.py startapp
    helpdesk` in a temporary directory, whose commands run as the database's owner."""

    def __init__(self, path, dbname):
        self.path, self.dbname = path, dbname
        self.env = dict(os.environ, PGUSER=dbname, PGDATABASE=dbname)
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        self.run_python("-m", "django", "startproject", "mysite", ".")
        self.manage("startapp", "helpdesk")
        with open(path / "mysite" / "settings.py", "a") as f:
            f.write(SETTINGS)
        with open(path / "helpdesk" / "models.py", "w") as f:
            f.write(MODELS)

    def run_python(self, *args):
        done = subprocess.run([sys.executable, *args], cwd=self.path, env=self.env, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def manage(self, *args):
        """`python manage.py ARGS`; its stdout."""
        return self.run_python("manage.py", *args, "--no-color")

    def migration(self, name):
        return (self.path / "helpdesk" / "migrations" / name).read_text()


@pytest.fixture(scope="module")
def project(tmp_path_factory, owner_dbname):
    return Project(tmp_path_factory.mktemp("startproject"), owner_dbname)


@pytest.fixture(scope="module")
def initial(project):
    """The migration makemigrations wrote."""
    assert "helpdesk/migrations/0001_initial.py" in project.manage("makemigrations")
    return project.migration("0001_initial.py")


@pytest.fixture(scope="module")
def migrated(project, initial):
    project.manage("migrate")
    return project


def rows(dbname, sql, params=()):
    """The rows of sql on the project's database, as the suite's superuser."""
    with psycopg.connect(dbname=dbname) as conn:
        return conn.execute(sql, params).fetchall()


def operations(text):
    """The names of the operations a migration file writes, in order."""
    return re.findall(r"^        (?:[\w.]+\.)?(\w+)\(", text, re.MULTILINE)


def test_makemigrations_writes_the_extension_and_the_domains_first(initial):
    assert operations(initial) == ["CreateExtension", "DefinePrefixedId", "DefineTypeId", "CreateModel",
                                   "CreateModel", "CreateModel"]
    assert "CreateExtension(\n            name='idgen',\n        )" in initial
    assert "DefinePrefixedId(\n            type_name='account_id',\n            prefix='acct',\n        )" in initial
    assert "DefineTypeId(\n            type_name='user_id',\n            prefix='user',\n        )" in initial


def test_migrate_as_the_owner_creates_the_extension_and_the_domains(migrated):
    db = migrated.dbname
    assert rows(db, "SELECT r.rolsuper, e.extowner::regrole::text FROM pg_extension e, pg_roles r"
                    " WHERE e.extname = 'idgen' AND r.rolname = %s", [db]) == [(False, db)]
    domains = rows(db, "SELECT typname, format_type(typbasetype, NULL), typowner::regrole::text FROM pg_type"
                       " WHERE typtype = 'd' AND typname IN ('account_id', 'user_id') ORDER BY 1")
    assert domains == [("account_id", "prefixed_id", db), ("user_id", "typeid", db)]


def test_columns_have_the_domains_and_the_generators_defaults(migrated):
    columns = rows(migrated.dbname,
                   "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid)"
                   " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                   " LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                   " WHERE c.relkind = 'r' AND c.relname LIKE 'helpdesk\\_%%' AND a.attnum > 0"
                   " AND a.atttypid <> 'varchar'::regtype")
    assert {(t, c): (type_, default) for t, c, type_, default in columns} == {
        ("helpdesk_account", "id"): ("account_id", "prefixed_id_new('acct'::text)"),
        ("helpdesk_agent", "id"): ("user_id", "typeid_new('user'::text)"),
        ("helpdesk_ticket", "id"): ("bigint", "snowflake(1)"),
        ("helpdesk_ticket", "ref"): ("ulid", "ulid()"),
        # the foreign keys to the domain keys are of the base types, without a DEFAULT
        ("helpdesk_ticket", "account_id"): ("prefixed_id", None),
        ("helpdesk_ticket", "agent_id"): ("typeid", None),
    }


SHELL = """
import json
from helpdesk.models import Account, Agent, Ticket
account, agent = Account.objects.create(name="a"), Agent.objects.create(email="a@example.com")
ticket = Ticket.objects.create(account=account, agent=agent)
got = Ticket.objects.select_related("account", "agent").get(ref=ticket.ref)
print(json.dumps({"types": [type(v).__name__ for v in (got.id, got.ref, got.account.id, got.agent.id)],
                  "saved": [ticket.id, str(ticket.ref), str(account.id), str(agent.id)],
                  "read": [got.id, str(got.ref), str(got.account_id), str(got.agent_id)]}))
"""


def test_the_orm_mints_and_reads_rows(migrated):
    out = json.loads(migrated.manage("shell", "-c", SHELL).strip().splitlines()[-1])
    assert out["types"] == ["int", "ULID", "PrefixedId", "TypeId"]
    assert out["read"] == out["saved"]
    ticket, ref, account, agent = out["saved"]
    assert (account.startswith("acct_"), agent.startswith("user_")) == (True, True)
    assert rows(migrated.dbname, "SELECT id::text, ref::text, account_id::text, agent_id::text FROM helpdesk_ticket"
                                 " WHERE id = %s", [ticket]) == [(str(ticket), ref, account, agent)]


def test_makemigrations_check_and_check_find_nothing(migrated):
    assert "No changes detected" in migrated.manage("makemigrations", "--check", "--dry-run")
    # commands.E001: makemigrations and migrate have the same autodetector
    assert "no issues" in migrated.manage("check", "--fail-level", "WARNING")


def test_a_model_with_a_new_domain_gets_only_that_domains_operation(migrated):
    with open(migrated.path / "helpdesk" / "models.py", "a") as f:
        f.write(COUPON)
    assert "helpdesk/migrations/0002_" in migrated.manage("makemigrations")
    [name] = [n for n in os.listdir(migrated.path / "helpdesk" / "migrations") if n.startswith("0002_")]
    second = migrated.migration(name)
    assert operations(second) == ["DefinePrefixedId", "CreateModel"]
    assert ("DefinePrefixedId(\n            type_name='coupon_code',\n            prefix='cpn',\n"
            "            token=True,\n        )") in second
    migrated.manage("migrate")
    assert rows(migrated.dbname, "SELECT format_type(a.atttypid, NULL), pg_get_expr(d.adbin, d.adrelid)"
                                 " FROM pg_attribute a JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)"
                                 " WHERE a.attrelid = 'helpdesk_coupon'::regclass AND a.attname = 'code'") == [
        ("coupon_code", "prefixed_id_token('cpn'::text)")]
    assert "No changes detected" in migrated.manage("makemigrations", "--check", "--dry-run")


def test_migrate_helpdesk_zero_leaves_nothing(migrated):
    migrated.manage("migrate", "helpdesk", "zero")
    assert rows(migrated.dbname, "SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'idgen'),"
                                 " (SELECT count(*) FROM pg_type WHERE typtype = 'd'"
                                 " AND typname IN ('account_id', 'user_id', 'coupon_code')),"
                                 " (SELECT count(*) FROM pg_class WHERE relname LIKE 'helpdesk\\_%%')") == [(0, 0, 0)]
