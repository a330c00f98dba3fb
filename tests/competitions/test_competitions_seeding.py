"""A competition's seeding (issue 39): by club rating, by ladder position or by hand, chosen
when it opens or on its page before the draw; the draw ranks by it (rules.seeding.rank), keeps
the stored seed for the rest, gives the byes to the top seeds, and says in the audit log how
it seeded; the page shows the method; in English and Russian."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from competitions import service
from competitions.models import Action, Competition, Entrant
from competitions.service import CompetitionError
from ladder.models import Ladder, Rung
from ratings.models import Rating
from rules import seeding

pytestmark = pytest.mark.django_db

RATINGS = {"ann": 1800.0, "ben": 1700.0, "cat": 1600.0, "dan": 1500.0, "eve": 1400.0, "fay": 1300.0}


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def refused(call: Any) -> str:
    with pytest.raises(CompetitionError) as caught:
        call()
    return caught.value.code


def opened(organiser: Any, members: Any, **options: Any) -> Competition:
    now = timezone.now()
    for m in members:
        Rating.objects.get_or_create(member=m, defaults={"rating": RATINGS[m.username], "rd": 60.0})
    row = service.open_competition(
        organiser, "Spring cup", now, now + timedelta(days=1), name_ru="Весенний кубок", **options
    )
    for m in members:
        service.enter(row.pk, m, now)
    return row


def ladder_of(members: Any, slug: str = "seniors") -> Ladder:
    now = timezone.now()
    ladder = Ladder.objects.create(name="Seniors", name_ru="Ветераны", slug=slug)
    for position, m in enumerate(members, start=1):
        Rung.objects.create(ladder=ladder, member=m, position=position, joined=now,
                            last_active=now)  # fmt: skip
    return ladder


def seeds(row: Competition) -> list[str]:
    """The entrants by seed number."""
    found = Entrant.objects.filter(competition=row).order_by("seed").select_related("member")
    return [e.member.username for e in found]


def test_by_rating_is_the_default(organiser, members) -> None:
    row = opened(organiser, members)
    assert row.seeding == "rating"
    service.draw(row.pk, organiser, timezone.now(), seed=11)
    assert seeds(row)[:2] == ["ann", "ben"]  # two seeded of six (a quarter of eight, at least 2)
    draw = Action.objects.get(competition=row, kind="draw")
    assert (draw.seeding, draw.ladder_id) == ("rating", None)


def test_by_the_entrys_ladder_then_the_rest_by_rating(organiser, members) -> None:
    ann, ben, cat, dan, eve, fay = members
    # The ladder's order is not the ratings': fay top, then dan; the others not on it.
    ladder = ladder_of([fay, dan])
    row = opened(organiser, members, seeding="ladder", ladder_id=None, seeding_ladder_id=ladder.pk)
    assert row.ranking_ladder_id == ladder.pk
    now = timezone.now()
    service.draw(row.pk, organiser, now, seed=3)
    row.refresh_from_db()
    # Seeds 1 and 2 by the ladder (and they have the byes: six in a bracket of eight).
    assert seeds(row)[:2] == ["fay", "dan"]
    assert sorted(seeds(row)[2:]) == ["ann", "ben", "cat", "eve"]
    ranking = (fay.pk, dan.pk, ann.pk, ben.pk, cat.pk, eve.pk)
    repeated = seeding.draw(ranking, row.seed)
    assert list(repeated.slots) == row.slots  # the ranking and the stored seed repeat the draw
    assert row.slots[1] is None and row.slots[5] is None  # byes beside seeds 1 and 2
    draw = Action.objects.get(competition=row, kind="draw")
    assert (draw.seeding, draw.ladder_id) == ("ladder", ladder.pk)


def test_a_ladders_competition_seeds_by_its_own_ladder(organiser, members) -> None:
    ann, ben, cat, *_ = members
    ladder = ladder_of([cat, ann, ben])
    row = opened(organiser, [ann, ben, cat], seeding="ladder", ladder_id=ladder.pk)
    service.draw(row.pk, organiser, timezone.now(), seed=1)
    assert seeds(row)[:2] == ["cat", "ann"]
    assert refused(lambda: opened(organiser, [], seeding="ladder")) == "no_seeding_ladder"
    assert refused(lambda: opened(organiser, [], seeding="coin")) == "bad_seeding"


def test_by_hand_the_organisers_order_exactly(organiser, members) -> None:
    ann, ben, cat, dan, eve, fay = members
    row = opened(organiser, members)
    now = timezone.now()
    order = [eve, cat, fay, ann, dan, ben]
    numbers = {m.pk: n for n, m in enumerate(order, start=1)}
    service.set_seeding(row.pk, organiser, now, "hand", numbers=numbers, note="club champions")
    assert refused(lambda: service.set_seeding(row.pk, members[0], now, "hand")) == (
        "organisers_only"
    )
    assert (
        refused(
            lambda: service.set_seeding(
                row.pk, organiser, now, "hand", numbers={ann.pk: 1, ben.pk: 1}
            )
        )
        == "seed_number_twice"
    )
    service.draw(row.pk, organiser, now, seed=5)
    row.refresh_from_db()
    assert row.seeded == 2
    assert seeds(row)[:2] == ["eve", "cat"]
    assert refused(lambda: service.set_seeding(row.pk, organiser, now, "rating")) == (
        "drawn_already"
    )
    log = list(Action.objects.filter(competition=row).values_list("kind", "seeding"))
    assert ("seeding", "hand") in log and ("draw", "hand") in log


def test_by_hand_those_left_unnumbered_come_after_by_rating(organiser, members) -> None:
    *_, eve, fay = members
    row = opened(organiser, members, format="round_robin")
    now = timezone.now()
    # A number for one not entered (withdrawn while the organiser typed) is passed over.
    service.set_seeding(
        row.pk, organiser, now, "hand", numbers={fay.pk: 1, eve.pk: 7, organiser.pk: 2}
    )
    service.draw(row.pk, organiser, now, seed=9)
    # A round robin of one group: every seed number is the ranking's (one pot a place).
    assert seeds(row) == ["fay", "eve", "ann", "ben", "cat", "dan"]


def test_the_page_shows_the_method_and_the_organisers_form(organiser, members) -> None:
    ann, ben, cat, dan, eve, fay = members
    ladder = ladder_of([dan, cat])
    row = opened(organiser, members)
    staff = logged_in(organiser)
    html = staff.get(f"/competitions/{row.pk}/").content.decode()
    assert 'data-testid="seeding" data-seeding="rating"' in html and "seeded by club rating" in html
    assert 'data-testid="seeding-form"' in html and f'name="seed-{ann.pk}"' in html
    # Outside the part read again on a change: the numbers being typed are never replaced.
    live = staff.get(f"/competitions/{row.pk}/live/").content.decode()
    assert 'data-seeding="rating"' in live and 'data-testid="seeding-form"' not in live
    # A member sees the method, not the form.
    member = logged_in(ann).get(f"/competitions/{row.pk}/").content.decode()
    assert 'data-seeding="rating"' in member and 'data-testid="seeding-form"' not in member
    assert (
        logged_in(ann).post(f"/competitions/{row.pk}/seeding/", {"method": "hand"}).status_code
        == 403
    )

    # By ladder, from the form.
    response = staff.post(
        f"/competitions/{row.pk}/seeding/", {"method": "ladder", "ladder": ladder.pk}
    )
    assert response.status_code == 302
    html = staff.get(f"/competitions/{row.pk}/").content.decode()
    assert "seeded by position on the ladder “Seniors”" in html
    ru = staff.get(f"/competitions/{row.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "«Ветераны»" in ru or "“Ветераны”" in ru

    # By hand: a number per entrant; one left empty; a repeated number refused.
    form = {"method": "hand", "ladder": ""}
    form |= {f"seed-{m.pk}": n for m, n in ((fay, 1), (eve, 2), (dan, 3), (cat, 4), (ben, 5))}
    form[f"seed-{ann.pk}"] = ""
    assert staff.post(f"/competitions/{row.pk}/seeding/", form).status_code == 302
    assert dict(
        Entrant.objects.filter(competition=row).values_list("member__username", "hand_seed")
    ) == {
        "fay": 1,
        "eve": 2,
        "dan": 3,
        "cat": 4,
        "ben": 5,
        "ann": None,
    }
    twice = form | {f"seed-{ann.pk}": "5"}
    assert staff.post(f"/competitions/{row.pk}/seeding/", twice).status_code == 409
    assert (
        staff.post(f"/competitions/{row.pk}/seeding/", form | {f"seed-{ann.pk}": "x"}).status_code
        == 409
    )
    html = staff.get(f"/competitions/{row.pk}/").content.decode()
    assert 'data-seeding="hand"' in html and 'value="3"' in html
    staff.post(f"/competitions/{row.pk}/draw/")
    html = staff.get(f"/competitions/{row.pk}/").content.decode()
    assert 'data-testid="seeding-form"' not in html
    assert 'data-testid="action-seeding" data-seeding="hand"' in html
    assert seeds(row)[:2] == ["fay", "eve"]
    ru = staff.get(f"/competitions/{row.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "seeded" not in ru and "вручную" in ru


def test_the_new_competition_form_chooses_the_seeding(organiser) -> None:
    ladder = Ladder.objects.create(name="Seniors", name_ru="Ветераны", slug="seniors")
    staff = logged_in(organiser)
    form = staff.get("/competitions/new/").content.decode()
    assert 'name="seeding"' in form and 'name="seeding_ladder"' in form
    deadline = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    base = {"name": "Ladder cup", "format": "knockout", "best_of": 3, "entry_deadline": deadline,
            "play_days": 7, "rated": "on", "reset": "on"}  # fmt: skip
    response = staff.post("/competitions/new/", base | {"seeding": "ladder"})
    assert response.status_code == 200 and "needs a ladder" in response.content.decode()
    response = staff.post(
        "/competitions/new/", base | {"seeding": "ladder", "seeding_ladder": ladder.pk}
    )
    assert response.status_code == 302
    row = Competition.objects.get(name="Ladder cup")
    assert (row.seeding, row.seeding_ladder_id, row.ladder_id) == ("ladder", ladder.pk, None)
