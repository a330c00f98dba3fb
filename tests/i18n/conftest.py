import pytest
from django.conf import settings
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_afterwards():  # type: ignore[no-untyped-def]
    """LocaleMiddleware leaves the last request's language active in the thread: later tests
    that call gettext outside a request expect the default, English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)
