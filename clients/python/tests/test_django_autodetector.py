"""The rules of idgen.django's autodetector, on project states and graphs made
here (no database): what a new migration starts with, and on which migration
of another app it then depends."""
import os

import pytest


@pytest.fixture(scope="module")
def django_setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "django_settings")
    import django
    django.setup()


def model(app_label, name, *fields):
    from django.db.migrations.state import ModelState
    return ModelState(app_label, name, list(fields))


def state(*models):
    from django.db.migrations.state import ProjectState
    project = ProjectState()
    for m in models:
        project.add_model(m)
    return project


def graph(*migrations):
    """A graph of migrations, each (app_label, name, operations), each app's in order."""
    from django.db.migrations import Migration
    from django.db.migrations.graph import MigrationGraph
    made = MigrationGraph()
    last = {}
    for app_label, name, operations in migrations:
        migration = Migration(name, app_label)
        migration.operations = operations
        made.add_node((app_label, name), migration)
        if app_label in last:
            made.add_dependency(None, (app_label, name), last[app_label])
        last[app_label] = (app_label, name)
    return made


def changes(before, after, made, *apps):
    """{app_label: [(migration name, its operations' descriptions, its dependencies)]}."""
    from django.db.migrations.questioner import MigrationQuestioner

    from idgen.django.autodetector import MigrationAutodetector
    found = MigrationAutodetector(before, after, MigrationQuestioner(specified_apps=set(apps))).changes(made)
    return {app: [(m.name, [type(op).__name__ + ":" + str(getattr(op, "type_name", getattr(op, "name", "")))
                            for op in m.operations], sorted(m.dependencies)) for m in migrations]
            for app, migrations in found.items()}


def account(app_label="a"):
    from idgen.django.fields import PrefixedIdField
    return model(app_label, "Account", ("id", PrefixedIdField("account_id", "acct", primary_key=True)))


def test_two_new_apps_with_one_domain(django_setup):
    # the domain once, in the first app; the other app depends on that migration
    # and has a CreateExtension of its own (a no-op after the first)
    assert changes(state(), state(account("a"), account("b")), graph(), "a", "b") == {
        "a": [("0001_initial", ["CreateExtension:idgen", "DefinePrefixedId:account_id", "CreateModel:Account"],
               [])],
        "b": [("0001_initial", ["CreateExtension:idgen", "CreateModel:Account"], [("a", "0001_initial")])],
    }


def test_what_another_apps_migration_creates_is_a_dependency(django_setup):
    from django.contrib.postgres.operations import CreateExtension
    from django.db import migrations, models

    from idgen.django.fields import ULIDField
    from idgen.django.operations import DefinePrefixedId
    thing = [("id", models.BigAutoField(primary_key=True))]
    before = state(model("a", "Thing", *thing))
    made = graph(("a", "0001_initial", [migrations.CreateModel("Thing", thing)]),
                 ("a", "0002_idgen", [CreateExtension("idgen"), DefinePrefixedId("account_id", "acct")]))
    after = state(model("a", "Thing", *thing), account("b"),
                  model("c", "Order", ("ref", ULIDField()), ("id", models.BigAutoField(primary_key=True))))
    assert changes(before, after, made, "b", "c") == {
        "b": [("0001_initial", ["CreateModel:Account"], [("a", "0002_idgen")])],
        "c": [("0001_initial", ["CreateModel:Order"], [("a", "0002_idgen")])],
    }


def test_what_the_migrated_models_use_already_is_left_alone(django_setup):
    # the extension and account_id, made some other way (RunSQL here), get no
    # operation; user_id is new
    from django.db import migrations

    from idgen.django.fields import PrefixedIdField, TypeIdField
    made = graph(("a", "0001_initial", [
        migrations.RunSQL("CREATE EXTENSION idgen; SELECT prefixed_id_define('account_id', 'acct')"),
        migrations.CreateModel("Account", list(account().fields.items()))]))
    after = state(account(), model("a", "Member", ("id", TypeIdField("user_id", "user", primary_key=True)),
                                   ("account", PrefixedIdField("account_id", "acct"))))
    assert changes(state(account()), after, made, "a") == {
        "a": [("0002_define_user_id_member", ["DefineTypeId:user_id", "CreateModel:Member"],
               [("a", "0001_initial")])],
    }


def test_new_and_altered_fields_naming_new_domains(django_setup):
    from django.contrib.postgres.operations import CreateExtension

    from idgen.django.fields import PrefixedIdField, TypeIdField
    from idgen.django.operations import DefinePrefixedId
    made = graph(("a", "0001_initial", [CreateExtension("idgen"), DefinePrefixedId("account_id", "acct")]))
    key = ("id", PrefixedIdField("account_id", "acct", primary_key=True))
    before = state(model("a", "Account", key, ("code", PrefixedIdField(prefix="cpn"))))
    after = state(model("a", "Account", key, ("code", PrefixedIdField("coupon_id", "cpn")),
                        ("owner", TypeIdField("owner_id", "owner", null=True))))
    [(name, operations, dependencies)] = changes(before, after, made, "a")["a"]
    assert sorted(operations[:2]) == ["DefinePrefixedId:coupon_id", "DefineTypeId:owner_id"]
    assert sorted(operations[2:]) == ["AddField:owner", "AlterField:code"]
    assert dependencies == [("a", "0001_initial")]


def test_an_unmanaged_model_gets_nothing(django_setup):
    # its table, and the types of its columns, are made elsewhere
    from django.db.migrations.state import ModelState

    from idgen.django.fields import PrefixedIdField
    legacy = ModelState("a", "Legacy", [("id", PrefixedIdField("legacy_id", "leg", primary_key=True))],
                        options={"managed": False})
    assert changes(state(), state(legacy), graph(), "a") == {"a": [("0001_initial", ["CreateModel:Legacy"], [])]}
