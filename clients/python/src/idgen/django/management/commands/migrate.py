"""Django's migrate, with makemigrations's autodetector for its check of un-migrated changes."""
from django.core.management.commands import migrate

from ...autodetector import MigrationAutodetector


class Command(migrate.Command):
    autodetector = MigrationAutodetector
