"""The tests run against the installed wheel, never the source tree."""
import os

import idgen


def test_imported_from_an_installed_wheel():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    assert "site-packages" in idgen.__file__
    assert not os.path.abspath(idgen.__file__).startswith(os.path.join(here, "src"))


def test_version_matches_the_metadata():
    from importlib.metadata import version
    assert version("idgen") == idgen.__version__
