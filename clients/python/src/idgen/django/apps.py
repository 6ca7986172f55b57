"""The app idgen.django: put it in INSTALLED_APPS and makemigrations writes the
extension and the domains the models' fields need (see autodetector.py)."""
from django.apps import AppConfig


class IdgenConfig(AppConfig):
    name = "idgen.django"
    label = "idgen"
    verbose_name = "idgen"
