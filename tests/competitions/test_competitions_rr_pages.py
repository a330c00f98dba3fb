"""A round robin's pages (competitions/views.py): opened from the organiser's form, drawn by
its button, its tables (`standings`, a `standing-<username>` row each) and fixtures round by
round (`round-<n>`, `fixture-<key>` with its state and winner), the tie-breaks in order, the
champion of a single group, the group winners of several; a withdrawal from the page; in
Russian; the page's cost fixed however many fixtures it shows."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from competitions import service
from competitions.models import Competition, Pairing
from game.models import Match
from ratings.models import Rating
from rules import bracket as rules
from tests.ladder.helpers import concede
from tests.queries import same_cost

pytestmark = pytest.mark.django_db

RATINGS = {"ann": 1800.0, "ben": 1700.0, "cat": 1600.0, "dan": 1500.0, "eve": 1400.0, "fay": 1300.0}


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def idle() -> None:
    """Channels' shared database thread idle (what a broadcast's listener handed it done): on
    SQLite's shared in-memory database its read would lock a table the next stroke writes
    (tests/conftest.py says the same between tests)."""
    SyncToAsync.single_thread_executor.submit(lambda: None).result(timeout=60)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def fixtures(html: str) -> dict[str, tuple[str, str | None]]:
    found = re.findall(
        r'data-testid="fixture-(g\d+\.\d+\.\d+)" data-state="(\w+)"(?: data-winner="(\w+)")?', html
    )
    return {key: (state, winner or None) for key, state, winner in found}


def row_of(html: str, name: str) -> dict[str, int]:
    """A table row's figures by column."""
    m = re.search(rf'data-testid="standing-{name}".*?</tr>', html, re.S)
    assert m, name
    return {k: int(v) for k, v in re.findall(r'data-col="([\w-]+)">(-?\d+)<', m.group(0))}


def opened(organiser: Any, members: Any, groups: int = 1) -> Competition:
    now = timezone.now()
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
    row = service.open_competition(
        organiser, "Winter league", now, now + timedelta(days=1), name_ru="Зимняя лига",
        best_of=rules.BestOf(3), format="round_robin", groups=groups,
    )  # fmt: skip
    for m in members:
        service.enter(row.pk, m, now)
    return row


def play_all(row: Competition, limit: int | None = None) -> None:
    """Fixtures to be played (the first `limit`): the higher rated wins at the table."""
    rows = Pairing.objects.filter(competition=row, fixture__status="to_play").select_related(
        "fixture__match__player_a", "fixture__match__player_b"
    )
    for p in list(rows.order_by("pk"))[:limit]:
        match = p.fixture.match
        assert match is not None
        a, b = match.player_a, match.player_b
        idle()
        loser = b if RATINGS[a.username] > RATINGS[b.username] else a
        concede(Match.objects.get(pk=match.pk), loser, played=False)  # a concession at once


def test_an_organiser_opens_a_round_robin_and_it_is_played_out(organiser, members) -> None:
    staff = logged_in(organiser)
    form_page = staff.get("/competitions/new/").content.decode()
    assert 'name="groups"' in form_page and 'value="round_robin"' in form_page
    deadline = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "League", "name_ru": "Лига", "format": "round_robin", "best_of": "3",
            "groups": "1", "cycles": "1", "rated": "on", "entry_deadline": deadline,
            "play_days": "7"}  # fmt: skip
    assert staff.post("/competitions/new/", form).status_code == 302
    row = Competition.objects.get(name="League")
    assert (row.format, row.groups, row.cycles, row.best_of) == ("round_robin", 1, 1, 3)
    four = members[:4]
    for m in four:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
        assert logged_in(m).post(f"/competitions/{row.pk}/enter/").status_code == 302
    page = f"/competitions/{row.pk}/"
    assert 'data-testid="draw"' in staff.get(page).content.decode()
    assert staff.post(f"/competitions/{row.pk}/draw/").status_code == 302
    ann = logged_in(members[0])
    html = ann.get(page).content.decode()
    assert html.count('data-testid="standings"') == 1 and 'data-testid="bracket"' not in html
    assert 'data-testid="draw"' not in html
    assert re.findall(r'data-testid="standing-(\w+)"', html) == ["ann", "ben", "cat", "dan"]
    assert row_of(html, "ann") == {
        "played": 0, "won": 0, "lost": 0, "frames-for": 0, "frames-against": 0,
        "difference": 0, "high-break": 0,
    }  # fmt: skip
    assert re.findall(r'data-testid="round-(\d)"', html) == ["1", "2", "3"]
    shown = fixtures(html)
    assert len(shown) == 6 and set(shown.values()) == {("waiting", None)}
    ties = re.search(r'data-testid="tie-breaks".*?</ol>', html, re.S)
    assert ties is not None
    assert re.findall(r"<li>([^<]+)</li>", ties.group(0)) == [
        "matches won", "frame difference", "the head-to-head result between those level",
        "frames won", "the highest break", "the seeding",
    ]  # fmt: skip
    assert 'data-testid="withdraw-play"' in html  # an entrant in play may withdraw
    play_all(row, limit=1)
    shown = fixtures(ann.get(page).content.decode())
    assert sorted(s for s, _ in shown.values()) == ["finished"] + ["waiting"] * 5
    play_all(row)
    html = ann.get(page).content.decode()
    assert all(state == "finished" and winner for state, winner in fixtures(html).values())
    assert row_of(html, "ann") == {
        "played": 3, "won": 3, "lost": 0, "frames-for": 6, "frames-against": 0,
        "difference": 6, "high-break": row_of(html, "ann")["high-break"],
    }  # fmt: skip
    assert (row_of(html, "dan")["lost"], row_of(html, "dan")["difference"]) == (3, -6)
    assert 'data-testid="champion" data-winner="ann"' in html
    assert 'data-testid="withdraw-play"' not in html


def test_several_groups_in_russian_and_their_winners(client: Client, organiser, members) -> None:
    row = opened(organiser, members, groups=2)
    service.draw(row.pk, organiser, timezone.now(), seed=9)
    page = f"/competitions/{row.pk}/"
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert html.count('data-testid="standings"') == 2
    assert len(re.findall(r'data-testid="standing-\w+"', html)) == 6
    assert "Группа A" in html and "Группа B" in html and "Таблицы групп" in html
    assert "разница партий" in html and "личная встреча" in html
    assert "Тур 1" in html and "Зимняя лига" in html
    play_all(row)
    html = client.get(page).content.decode()
    assert 'data-testid="champion"' not in html
    assert 'data-testid="group-winners"' in html
    assert "Group A: <strong>" in html and "Group B: <strong>" in html
    russian = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Победители групп" in russian


def test_a_member_and_an_organiser_withdraw_from_the_page(organiser, members) -> None:
    row = opened(organiser, members[:4])
    service.draw(row.pk, organiser, timezone.now(), seed=9)
    page = f"/competitions/{row.pk}/"
    dan = logged_in(members[3])
    assert dan.post(f"/competitions/{row.pk}/withdraw/").status_code == 302
    html = dan.get(page).content.decode()
    assert 'data-testid="withdraw-play"' not in html
    assert sum(s == "walkover" for s, _ in fixtures(html).values()) == 3
    assert row_of(html, "dan")["lost"] == 3
    staff = logged_in(organiser)
    assert 'data-testid="withdraw-cat"' in staff.get(page).content.decode()
    ben = logged_in(members[1])
    assert ben.post(f"/competitions/{row.pk}/withdraw/", {"member": "cat"}).status_code == 403
    assert staff.post(f"/competitions/{row.pk}/withdraw/", {"member": "cat"}).status_code == 302
    html = staff.get(page).content.decode()
    assert row_of(html, "cat")["played"] == 3


def test_a_round_robins_page_costs_the_same_however_far_it_has_gone(
    client: Client, organiser, members
) -> None:
    row = opened(organiser, members, groups=2)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    same_cost(lambda: client.get(f"/competitions/{row.pk}/"), lambda: play_all(row), most=12)


def test_a_match_names_its_group_and_round(client: Client, organiser, members) -> None:
    row = opened(organiser, members, groups=2)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    match_id = Pairing.objects.get(competition=row, key="g2.1.0").fixture.match_id
    html = client.get(f"/match/{match_id}/").content.decode()
    assert 'data-testid="match-competition"' in html and "Group B · Round 1" in html


def test_groups_then_a_knockout_on_the_page(client: Client, organiser, members) -> None:
    staff = logged_in(organiser)
    deadline = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Cup", "format": "groups", "best_of": "1", "groups": "2", "advance": "2",
            "cycles": "1", "rated": "on", "entry_deadline": deadline, "play_days": "7"}  # fmt: skip
    assert staff.post("/competitions/new/", form).status_code == 302
    row = Competition.objects.get(name="Cup")
    assert (row.format, row.groups, row.advance) == ("groups", 2, 2)
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
        service.enter(row.pk, m, timezone.now())
    assert staff.post(f"/competitions/{row.pk}/draw/").status_code == 302
    page = f"/competitions/{row.pk}/"
    html = client.get(page).content.decode()
    assert html.count('data-testid="standings"') == 2 and 'data-testid="bracket"' not in html
    assert re.findall(r'data-testid="group-round-(\d)"', html) == ["1", "2", "3"]
    play_all(row)
    html = client.get(page).content.decode()
    assert 'data-testid="bracket"' in html and "Semi-final" in html and "Group matches" in html
    assert re.findall(r'data-testid="round-(\d)"', html) == ["1", "2"]
    assert 'data-testid="fixture-w1.0" data-state="waiting"' in html
    assert 'data-testid="group-winners"' not in html
    play_all(row)
    play_all(row)
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="champion" data-winner="ann"' in html
    assert "Полуфинал" in html and "Матчи в группах" in html


def test_groups_then_a_knockout_cost_the_same_once_the_bracket_is_made(
    client: Client, organiser, members
) -> None:
    now = timezone.now()
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
    row = service.open_competition(
        organiser, "Cup", now, now + timedelta(days=1), format="groups", groups=2, advance=2
    )
    for m in members:
        service.enter(row.pk, m, now)
    service.draw(row.pk, organiser, now, seed=2)
    play_all(row)  # the groups: the bracket is made
    same_cost(lambda: client.get(f"/competitions/{row.pk}/"), lambda: play_all(row), most=16)
