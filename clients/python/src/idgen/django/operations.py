"""Migration operations for idgen's per-entity types, which makemigrations
writes where idgen.django is in INSTALLED_APPS (idgen.django.autodetector):

    from django.contrib.postgres.operations import CreateExtension
    from idgen.django.operations import DefinePrefixedId, DefineTypeId

    operations = [
        CreateExtension("idgen"),
        DefinePrefixedId("account_id", "acct"),
        DefineTypeId("user_id", "user"),
        ...
    ]

Both are reversible: backwards drops the domain (and its prefix's entry in
prefixed_id_registry, through idgen's own cleanup)."""

from django.db.migrations.operations.base import Operation

__all__ = ["DefinePrefixedId", "DefineTypeId"]


class _Define(Operation):
    reversible = True
    reduces_to_sql = True

    def __init__(self, type_name, prefix):
        self.type_name, self.prefix = type_name, prefix

    def state_forwards(self, app_label, state):
        pass  # a domain is not part of Django's model state

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        schema_editor.execute("DROP DOMAIN %s" % schema_editor.quote_name(self.type_name))

    @property
    def migration_name_fragment(self):
        return "define_%s" % self.type_name


class DefinePrefixedId(_Define):
    """SELECT prefixed_id_define(type_name, prefix, token)."""

    def __init__(self, type_name, prefix, token=False):
        super().__init__(type_name, prefix)
        self.token = token

    def deconstruct(self):
        kwargs = {"token": True} if self.token else {}
        return self.__class__.__qualname__, [self.type_name, self.prefix], kwargs

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        schema_editor.execute("SELECT prefixed_id_define(%s, %s, %s)",
                              (self.type_name, self.prefix, self.token))

    def describe(self):
        return "Create the prefixed_id type %s (prefix %s)" % (self.type_name, self.prefix)


class DefineTypeId(_Define):
    """SELECT typeid_define(type_name, prefix)."""

    def deconstruct(self):
        return self.__class__.__qualname__, [self.type_name, self.prefix], {}

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        schema_editor.execute("SELECT typeid_define(%s, %s)", (self.type_name, self.prefix))

    def describe(self):
        return "Create the typeid type %s (prefix %s)" % (self.type_name, self.prefix)
