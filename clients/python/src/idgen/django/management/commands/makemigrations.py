"""Django's makemigrations, writing the extension and the domains the models need."""
from django.core.management.commands import makemigrations

from ...autodetector import MigrationAutodetector


class Command(makemigrations.Command):
    autodetector = MigrationAutodetector
