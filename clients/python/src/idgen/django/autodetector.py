"""The autodetector of idgen.django's makemigrations and migrate commands:
Django's, adding to the migrations it writes what idgen's fields need first.

The first migration that brings an idgen field into the project starts with
CreateExtension("idgen"); the first migration with a field that names a domain
(PrefixedIdField("account_id", "acct"), TypeIdField("user_id", "user")) starts
with its DefinePrefixedId or DefineTypeId. Nothing is added for what a
migration of the graph already creates (a migration of another app that does
becomes a dependency), nor for what a field of the migrated state already uses
(made some other way, such as RunSQL), nor for an unmanaged model."""

from django.contrib.postgres.operations import CreateExtension
from django.db.migrations import operations
from django.db.migrations.autodetector import MigrationAutodetector as _DjangoAutodetector

from .fields import PrefixedIdField, TypeIdField, _DbDefault
from .operations import DefinePrefixedId, DefineTypeId, _Define

__all__ = ["MigrationAutodetector"]

EXTENSION = ("extension", "idgen")


def _needs(field):
    """{key: a function making its operation} of what field needs created first."""
    if not isinstance(field, _DbDefault):
        return {}
    needs = {EXTENSION: lambda: CreateExtension("idgen")}
    if isinstance(field, PrefixedIdField) and field.type_name:
        needs[("domain", field.type_name)] = lambda: DefinePrefixedId(field.type_name, field.prefix,
                                                                      token=field.token)
    elif isinstance(field, TypeIdField) and field.type_name:
        needs[("domain", field.type_name)] = lambda: DefineTypeId(field.type_name, field.prefix)
    return needs


def _fields(operation):
    """The fields whose columns operation creates or changes (an unmanaged model has none)."""
    if isinstance(operation, operations.CreateModel):
        if not operation.options.get("managed", True):
            return []
        return [field for _, field in operation.fields]
    if isinstance(operation, (operations.AddField, operations.AlterField)):
        return [operation.field]
    return []


def _created(operation):
    """The key of what operation creates, or None."""
    if isinstance(operation, CreateExtension) and operation.name == "idgen":
        return EXTENSION
    if isinstance(operation, _Define):
        return ("domain", operation.type_name)
    return None


class MigrationAutodetector(_DjangoAutodetector):
    def _existing(self, graph):
        """{key: (app_label, migration name), or None} of what exists before the new migrations."""
        existing = {}
        for node, migration in sorted((graph.nodes if graph else {}).items()):
            for operation in getattr(migration, "operations", []):
                key = _created(operation)
                if key:
                    existing.setdefault(key, node)
        for model_state in self.from_state.models.values():
            for field in model_state.fields.values():
                for key in _needs(field):
                    existing.setdefault(key, None)
        return existing

    def _detect_changes(self, convert_apps=None, graph=None):
        changes = super()._detect_changes(convert_apps, graph)
        existing = self._existing(graph)
        made = {}  # key: the new migration that creates it
        for app_label in sorted(changes):
            for migration in changes[app_label]:
                needs = {}
                for operation in migration.operations:
                    for field in _fields(operation):
                        for key, make in _needs(field).items():
                            needs.setdefault(key, make)
                first = []
                for key, make in needs.items():
                    if key in existing:
                        where = existing[key]
                    elif key in made and (key != EXTENSION or made[key][0] == app_label):
                        where = made[key]
                    else:
                        # the extension again in another app's new migration rather than
                        # a dependency between new migrations (CreateExtension is a no-op
                        # where the extension exists)
                        first.append(make())
                        made.setdefault(key, (app_label, migration.name))
                        continue
                    if where and where[0] != app_label and where not in migration.dependencies:
                        migration.dependencies.append(where)
                migration.operations[:0] = first
        return changes
