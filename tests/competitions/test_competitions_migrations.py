"""The competitions' migrations match their models (and the ratings' new kind its choices):
makemigrations finds nothing to write."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_makemigrations_finds_nothing_to_write() -> None:
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # SystemExit(1) if any
    assert "No changes detected" in out.getvalue()


def test_a_competition_result_is_a_kind_of_rated_result() -> None:
    from ratings.models import Kind

    assert Kind.COMPETITION == "competition"
