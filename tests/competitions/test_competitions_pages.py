"""The competitions' pages (competitions/views.py): the list, a competition's entrants and
bracket, an organiser opening and drawing one, members entering and withdrawing, a result
reaching the bracket, the champion; in English and Russian; the page's cost fixed however far
the bracket has gone."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from competitions import service
from competitions.models import Competition, Pairing
from fixtures.service import settle_due
from game.models import Match
from ratings.models import Rating
from tests.ladder.helpers import concede
from tests.queries import same_cost

pytestmark = pytest.mark.django_db

RATINGS = {"ann": 1800.0, "ben": 1700.0, "cat": 1600.0, "dan": 1500.0, "eve": 1400.0, "fay": 1300.0}


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def fixtures(html: str) -> dict[str, tuple[str, str | None]]:
    """Each bracket match on the page: key -> (state, winner)."""
    found = re.findall(
        r'data-testid="fixture-([wlft]\d+\.\d+)" data-state="(\w+)"(?: data-winner="(\w+)")?', html
    )
    return {key: (state, winner or None) for key, state, winner in found}


def opened(organiser: Any, members: Any) -> Competition:
    now = timezone.now()
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
    row = service.open_competition(
        organiser, "Winter knockout", now, now + timedelta(days=1), name_ru="Зимний турнир"
    )
    for m in members:
        service.enter(row.pk, m, now)
    return row


def play_round(row: Competition) -> None:
    """Every match to be played now: the higher rated wins at the table."""
    for p in Pairing.objects.filter(competition=row, fixture__status="to_play").select_related(
        "fixture__match__player_a", "fixture__match__player_b"
    ):
        match = p.fixture.match
        assert match is not None
        a, b = match.player_a, match.player_b
        concede(
            Match.objects.get(pk=match.pk), b if RATINGS[a.username] > RATINGS[b.username] else a
        )


def test_a_visitor_sees_the_list_and_the_entrants(client: Client, organiser, members) -> None:
    row = opened(organiser, members)
    html = client.get("/competitions/").content.decode()
    assert f'href="/competitions/{row.pk}/"' in html and "Winter knockout" in html
    assert 'data-testid="new-competition"' not in html
    html = client.get(f"/competitions/{row.pk}/").content.decode()
    assert re.findall(r'data-testid="entrant-(\w+)"', html) == [m.username for m in members]
    assert "Log in to enter" in html
    assert 'data-testid="enter"' not in html and 'data-testid="draw"' not in html
    assert 'data-testid="bracket"' not in html


def test_only_an_organiser_opens_one(members) -> None:
    ann, *_ = members
    assert logged_in(ann).get("/competitions/new/").status_code == 403
    ann.user_permissions.add(
        Permission.objects.get(codename="organise", content_type__app_label="competitions")
    )
    ann = get_user_model().objects.get(pk=ann.pk)
    assert logged_in(ann).get("/competitions/new/").status_code == 200  # given the permission


def test_an_organiser_opens_draws_and_the_bracket_is_played_out(organiser, members) -> None:
    staff = logged_in(organiser)
    assert 'name="name_ru"' in staff.get("/competitions/new/").content.decode()
    deadline = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Spring cup", "name_ru": "Весенний кубок", "format": "knockout",
            "best_of": "1", "best_of_final": "3", "rated": "on", "entry_deadline": deadline,
            "play_days": "7"}  # fmt: skip
    assert staff.post("/competitions/new/", {**form, "best_of": "2"}).status_code == 200
    response = staff.post("/competitions/new/", form)
    row = Competition.objects.get(name="Spring cup")
    assert response.status_code == 302 and response["Location"] == f"/competitions/{row.pk}/"
    assert (row.name_ru, row.best_of, row.best_of_final, row.rated) == (
        "Весенний кубок",
        1,
        3,
        True,
    )
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
        client = logged_in(m)
        assert 'data-testid="enter"' in client.get(f"/competitions/{row.pk}/").content.decode()
        assert client.post(f"/competitions/{row.pk}/enter/").status_code == 302
        assert 'data-testid="withdraw"' in client.get(f"/competitions/{row.pk}/").content.decode()
    ann = logged_in(members[0])
    assert ann.post(f"/competitions/{row.pk}/draw/").status_code == 403
    assert 'data-testid="draw"' in staff.get(f"/competitions/{row.pk}/").content.decode()
    assert staff.post(f"/competitions/{row.pk}/draw/").status_code == 302
    assert staff.post(f"/competitions/{row.pk}/draw/").status_code == 409  # drawn already
    html = ann.get(f"/competitions/{row.pk}/").content.decode()
    assert 'data-testid="bracket"' in html and 'data-testid="enter"' not in html
    assert re.findall(r'data-testid="round-(\d)"', html) == ["1", "2", "3"]
    assert "Quarter-final" in html and "Semi-final" in html and "Final" in html
    shown = fixtures(html)
    assert shown["w1.0"] == ("bye", "ann") and shown["w1.2"] == ("bye", "ben")
    assert shown["w1.1"] == ("waiting", None) and shown["w1.3"] == ("waiting", None)
    assert shown["w2.0"] == ("waiting", None) and shown["w3.0"] == ("waiting", None)
    match_id = Pairing.objects.get(competition=row, key="w1.1").fixture.match_id
    assert f'href="/match/{match_id}/"' in html
    play_round(row)
    shown = fixtures(ann.get(f"/competitions/{row.pk}/").content.decode())
    assert shown["w1.1"][0] == "finished" and shown["w1.1"][1] in {"dan", "cat", "eve", "fay"}
    play_round(row)
    play_round(row)
    html = client.get(f"/competitions/{row.pk}/").content.decode()
    assert fixtures(html)["w3.0"] == ("finished", "ann")
    assert 'data-testid="champion" data-winner="ann"' in html
    listed = client.get("/competitions/").content.decode()
    assert "won by ann" in listed


def test_the_pages_in_russian(client: Client, organiser, members) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    html = client.get(f"/competitions/{row.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Зимний турнир" in html and "Сетка" in html and "Четвертьфинал" in html
    assert "Полуфинал" in html and "Финал" in html and "Участники" in html
    assert "свободный проход" in html
    listed = client.get("/competitions/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Турниры" in listed and "Идут" in listed


def test_a_competitions_page_costs_the_same_however_far_it_has_gone(
    client: Client, organiser, members
) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    same_cost(lambda: client.get(f"/competitions/{row.pk}/"), lambda: play_round(row), most=12)


def test_an_organiser_gives_a_flagged_match_from_the_page(
    client: Client, organiser, members
) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    settle_due(timezone.now() + timedelta(days=8), 10)  # nobody came to either match: flagged
    staff = logged_in(organiser)
    html = staff.get(f"/competitions/{row.pk}/").content.decode()
    assert fixtures(html)["w1.1"] == ("flagged", None)
    pairing = Pairing.objects.select_related("fixture__second").get(competition=row, key="w1.1")
    name = pairing.fixture.second.username
    assert f'data-testid="award-w1.1-{name}"' in html
    assert 'data-testid="award-' not in client.get(f"/competitions/{row.pk}/").content.decode()
    assert (
        logged_in(members[0])
        .post(f"/competitions/{row.pk}/award/", {"key": "w1.1", "winner": name})
        .status_code
        == 403
    )
    response = staff.post(f"/competitions/{row.pk}/award/", {"key": "w1.1", "winner": name})
    assert response.status_code == 302
    assert fixtures(staff.get(f"/competitions/{row.pk}/").content.decode())["w1.1"] == (
        "walkover",
        name,
    )


def test_a_matchs_page_and_record_name_its_competition_and_round(
    client: Client, organiser, members
) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    match_id = Pairing.objects.get(competition=row, key="w1.1").fixture.match_id
    live = client.get(f"/match/{match_id}/").content.decode()
    assert 'data-testid="match-competition"' in live and "Quarter-final" in live
    play_round(row)
    client.get(f"/match/{match_id}/")  # the record, read once and kept
    with CaptureQueriesContext(connection) as read:
        record = client.get(f"/match/{match_id}/").content.decode()
    # The competition comes with the match, in the query that reads it: no query of its own.
    ours = [q["sql"] for q in read.captured_queries if "competitions_" in q["sql"]]
    assert len(ours) == 1 and '"game_match"' in ours[0], ours
    assert 'data-testid="match-record"' in record
    assert f'href="/competitions/{row.pk}/"' in record and "Quarter-final" in record
    russian = client.get(f"/match/{match_id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Зимний турнир" in russian and "Четвертьфинал" in russian
    plain = Match.objects.exclude(fixture__pairing__isnull=False).first()
    assert (
        plain is None
        or 'data-testid="match-competition"'
        not in client.get(f"/match/{plain.pk}/").content.decode()
    )


def test_the_two_players_agree_a_start_on_the_competitions_page(organiser, members) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    fixture = (
        Pairing.objects.select_related("fixture__first", "fixture__second")
        .get(competition=row, key="w1.1")
        .fixture
    )
    first, second = logged_in(fixture.first), logged_in(fixture.second)
    page = f"/competitions/{row.pk}/"
    assert 'data-testid="start-w1.1"' in first.get(page).content.decode()
    assert 'data-testid="start-w1.1"' not in logged_in(organiser).get(page).content.decode()
    at = (timezone.localtime() + timedelta(days=1)).replace(second=0, microsecond=0)
    base = f"/competitions/{row.pk}/fixtures/{fixture.pk}/start/"
    assert first.post(base, {"at": at.strftime("%Y-%m-%dT%H:%M")}).status_code == 302
    html = second.get(page).content.decode()
    assert 'data-testid="proposed-start"' in html and 'data-testid="accept-start"' in html
    late = {"at": (at + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M")}
    refused = second.post(base, late)
    assert refused.status_code == 409 and "ten minutes before" in refused.content.decode()
    assert second.post(base + "accept/", {"at": at.isoformat()}).status_code == 302
    fixture.refresh_from_db()
    assert fixture.start_at == at and fixture.proposed_start is None
    assert fixtures(second.get(page).content.decode())["w1.1"] == ("agreed", None)
    other = Pairing.objects.get(competition=row, key="w1.3").fixture
    assert (
        first.post(
            f"/competitions/{row.pk}/fixtures/{other.pk}/start/", {"at": at.isoformat()}
        ).status_code
        == 404
    )  # not theirs
