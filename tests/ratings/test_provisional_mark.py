"""A provisional rating (its deviation above rules.ratings.PROVISIONAL_RD) is marked "?",
with its words on hover and for screen readers, wherever the pages show a rating: the ladder,
the members' directory, a profile and a match's rating changes. A settled one is not."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from ratings.models import Rating
from rules.ratings import PROVISIONAL_RD
from tests.ladder.helpers import accepted, concede, on_ladder

pytestmark = pytest.mark.django_db

MARK = re.compile(r'<abbr class="provisional"[^>]*title="([^"]+)"[^>]*>\?</abbr>')


def _rated(member: Any, rd: float) -> None:
    fields = {"rating": 1600.0, "rd": rd, "played": 4}
    Rating.objects.update_or_create(member=member, defaults=fields)


def _marked(html: str, name: str) -> bool:
    """Whether the table row or paragraph naming `name` carries the mark."""
    rows = [r for r in re.split(r"<tr|<p", html) if f">{name}<" in r or f"{name}:" in r]
    assert rows, f"{name} is not on the page"
    return any(MARK.search(r) for r in rows)


def test_the_ladder_and_the_directory_mark_a_provisional_rating(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    _rated(ann, PROVISIONAL_RD - 20)
    _rated(ben, PROVISIONAL_RD + 60)
    for url in ("/ladder/", "/players/"):
        html = Client().get(url).content.decode()
        assert not _marked(html, "ann") and _marked(html, "ben"), url


def test_a_profile_and_a_match_say_it_in_russian(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = concede(accepted(main, ben, ann), ann)  # both newcomers: both provisional before
    russian = Client(headers={"accept-language": "ru"})
    html = russian.get("/players/ben/").content.decode()
    words = MARK.search(html)
    assert words and words.group(1).startswith("предварительный"), html
    record = russian.get(f"/match/{match.pk}/").content.decode()
    assert len(MARK.findall(record)) == 2  # both changes started from a newcomer's rating
