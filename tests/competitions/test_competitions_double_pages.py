"""A double elimination's and a knockout's new parts on the pages (competitions/views.py): the
organiser's form (the format, the reset on by default, the third-place match off by default);
a double elimination's winners' bracket, losers' bracket and grand final, each a round at a
time, the reset shown once it is to be played, the champion with the runner-up and the third;
in Russian; the page's cost fixed however far the bracket has gone; a knockout's third-place
match; a member's and an organiser's withdrawal from a knockout on the page."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
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


def rounds(html: str, section: str) -> list[str]:
    """The rounds' test ids in a section of the page, in order."""
    found = re.search(rf'<div class="bracket" data-testid="{section}">(.*?)</div>\s*</section>',
                      html, re.S)  # fmt: skip
    assert found, section
    return re.findall(r'<section class="round" data-testid="([\w-]+)"', found.group(1))


def drawn(organiser: Any, members: Any, **options: Any) -> Competition:
    now = timezone.now()
    for m in members:
        Rating.objects.create(member=m, rating=RATINGS[m.username], rd=60.0)
    row = service.open_competition(
        organiser, "Winter cup", now, now + timedelta(days=1), name_ru="Зимний кубок",
        best_of=rules.BestOf(1, semi_finals=3, final=5), **options,
    )  # fmt: skip
    for m in members:
        service.enter(row.pk, m, now)
    service.draw(row.pk, organiser, now, seed=7)
    return row


def play(row: Competition, upsets: frozenset[str] = frozenset()) -> int:
    """Every match to be played now: the higher rated wins at the table (the lower in
    `upsets`). How many."""
    pairings = Pairing.objects.filter(competition=row, fixture__status="to_play").select_related(
        "fixture__match__player_a", "fixture__match__player_b"
    )
    count = 0
    for p in pairings:
        match = p.fixture.match
        assert match is not None
        a, b = match.player_a, match.player_b
        higher, lower = (a, b) if RATINGS[a.username] > RATINGS[b.username] else (b, a)
        concede(Match.objects.get(pk=match.pk), higher if p.key in upsets else lower, played=False)
        count += 1
    return count


def test_the_form_opens_a_double_elimination_with_the_reset(organiser) -> None:
    staff = logged_in(organiser)
    form_page = staff.get("/competitions/new/").content.decode()
    assert 'value="double"' in form_page
    assert re.search(r'<input type="checkbox" name="reset"[^>]* checked', form_page)
    third = re.search(r'<input type="checkbox" name="third_place"[^>]*>', form_page)
    assert third and "checked" not in third.group(0)
    deadline = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"name": "Double", "format": "double", "best_of": "1", "best_of_final": "3",
            "reset": "on", "rated": "on", "entry_deadline": deadline, "play_days": "7"}  # fmt: skip
    assert staff.post("/competitions/new/", form).status_code == 302
    row = Competition.objects.get(name="Double")
    assert (row.format, row.reset, row.third_place, row.best_of_final) == ("double", True, False, 3)
    del form["reset"]
    assert staff.post("/competitions/new/", {**form, "name": "No reset"}).status_code == 302
    assert Competition.objects.get(name="No reset").reset is False
    knockout = {**form, "name": "Cup", "format": "knockout", "third_place": "on"}
    assert staff.post("/competitions/new/", knockout).status_code == 302
    assert Competition.objects.get(name="Cup").third_place is True


def test_a_double_eliminations_page_through_the_reset(client: Client, organiser, members) -> None:
    row = drawn(organiser, members, format="double")
    page = f"/competitions/{row.pk}/"
    html = client.get(page).content.decode()
    assert "Winners&#x27; bracket" in html and "Losers&#x27; bracket" in html
    assert rounds(html, "bracket") == ["round-1", "round-2", "round-3"]
    assert rounds(html, "losers-bracket") == [f"losers-round-{n}" for n in (1, 2, 3, 4)]
    assert rounds(html, "grand-final") == ["grand-final-1"]  # the reset only once it is due
    assert "Winners&#x27; final" in html and "Losers&#x27; round 2" in html
    assert "Losers&#x27; final" in html and "Grand final" in html
    shown = fixtures(html)
    assert len(shown) == 14  # 7 + 6 + the grand final
    assert shown["w1.0"] == ("bye", "ann") and shown["l1.0"] == ("waiting", None)
    assert shown["w1.1"] == ("waiting", None) and shown["l2.0"] == ("waiting", None)
    assert shown["f1.0"] == ("waiting", None)
    match_id = Pairing.objects.get(competition=row, key="w1.1").fixture.match_id
    assert f'href="/match/{match_id}/"' in html
    play(row)
    shown = fixtures(client.get(page).content.decode())
    # The first round's losers drop in against the byes' empty places: through to round 2.
    assert shown["l1.0"][0] == "bye" and shown["l1.0"][1] not in (None, "ann", "ben")
    assert shown["l2.0"] == ("waiting", None)
    while play(row, upsets=frozenset({"f1.0"})):
        if Pairing.objects.filter(competition=row, key="f2.0").exists():
            break
    html = client.get(page).content.decode()
    assert rounds(html, "grand-final") == ["grand-final-1", "grand-final-2"]
    assert "Grand final (reset)" in html
    assert fixtures(html)["f1.0"] == ("finished", "ben")
    assert fixtures(html)["f2.0"] == ("waiting", None)
    reset = Pairing.objects.get(competition=row, key="f2.0").fixture.match_id
    assert "Grand final (reset)" in client.get(f"/match/{reset}/").content.decode()
    play(row)
    html = client.get(page).content.decode()
    assert fixtures(html)["f2.0"] == ("finished", "ann")
    assert 'data-testid="champion" data-winner="ann"' in html
    assert 'data-testid="runner-up" data-winner="ben"' in html
    assert 'data-testid="third" data-winner="cat"' in html
    russian = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Верхняя сетка" in russian and "Нижняя сетка" in russian
    assert "Суперфинал" in russian and "Финал нижней сетки" in russian
    assert "двойное выбывание" in russian


def test_a_double_eliminations_page_costs_the_same_however_far_it_has_gone(
    client: Client, organiser, members
) -> None:
    row = drawn(organiser, members, format="double")

    def to_the_end() -> None:
        while play(row, upsets=frozenset({"f1.0"})):
            pass

    same_cost(lambda: client.get(f"/competitions/{row.pk}/"), to_the_end, most=12)
    row.refresh_from_db()
    assert row.status == "finished"


def test_a_knockouts_third_place_match_on_the_page(client: Client, organiser, members) -> None:
    row = drawn(organiser, members, third_place=True)
    page = f"/competitions/{row.pk}/"
    html = client.get(page).content.decode()
    assert rounds(html, "bracket") == ["round-1", "round-2", "round-3", "third-place"]
    assert "Third-place match" in html and fixtures(html)["t1.0"] == ("waiting", None)
    while play(row):
        pass
    html = client.get(page).content.decode()
    state, third = fixtures(html)["t1.0"]
    assert state == "finished" and third
    assert f'data-testid="third" data-winner="{third}"' in html
    russian = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Матч за третье место" in russian and "Третье место" in russian


def test_a_member_and_an_organiser_withdraw_from_a_knockout_on_the_page(organiser, members) -> None:
    row = drawn(organiser, members)
    page = f"/competitions/{row.pk}/"
    ann = logged_in(members[0])
    assert 'data-testid="withdraw-play"' in ann.get(page).content.decode()
    staff = logged_in(organiser)
    html = staff.get(page).content.decode()
    assert all(f'data-testid="withdraw-{m.username}"' in html for m in members)
    first = Pairing.objects.select_related("fixture__first", "fixture__second").get(
        competition=row, key="w1.1"
    )
    name, other = first.fixture.first.username, first.fixture.second.username
    assert staff.post(f"/competitions/{row.pk}/withdraw/", {"member": name}).status_code == 302
    html = staff.get(page).content.decode()
    assert fixtures(html)["w1.1"] == ("walkover", other)
    assert f'data-testid="withdraw-{name}"' not in html
    assert ann.post(f"/competitions/{row.pk}/withdraw/").status_code == 302
    html = ann.get(page).content.decode()
    assert 'data-testid="withdraw-play"' not in html
    assert fixtures(html)["w2.0"] == ("walkover", other)  # ann's quarter-final, to come
    assert ann.post(f"/competitions/{row.pk}/withdraw/").status_code == 409
