import pytest
from django.conf import settings
from django.utils import translation

from club import process as club_process


@pytest.fixture(autouse=True)
def _english_afterwards():  # type: ignore[no-untyped-def]
    """LocaleMiddleware leaves the last request's language active in the thread: later tests
    that call gettext outside a request expect the default, English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _a_fresh_lobby():  # type: ignore[no-untyped-def]
    """The pages here render the lobby from what this process knows of it: nothing an
    earlier test's matches left (a fresh database gives a match another test's id)."""
    club_process.reset()
    yield
    club_process.reset()
