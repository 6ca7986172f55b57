"""Django 5.2: model fields whose database DEFAULT mints the ID (db_default,
returned on save), migration operations for per-entity types, and query
expressions and time-range lookups. Import the parts from idgen.django.fields,
idgen.django.operations and idgen.django.expressions.

As an app in INSTALLED_APPS ("idgen.django"), its makemigrations and migrate
commands write CreateExtension("idgen") and the fields' DefinePrefixedId and
DefineTypeId into the migrations (idgen.django.autodetector)."""
