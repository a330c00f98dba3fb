"""An organiser's powers through the competitions' service (issue 39): entry limits (how many,
and a ladder's members only), adding and removing entrants before the draw, the decisions on a
flagged fixture (a walkover, both out, a new deadline), a result played away from the site
recorded, and the audit log of all of it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from competitions import service
from competitions.models import Action, Competition, Decision, Entrant, Pairing
from competitions.service import CompetitionError
from fixtures.models import Fixture
from fixtures.service import settle_due
from game.models import Match
from ladder.models import Ladder, Rung
from ratings.models import RatedResult, Rating
from rules import bracket as rules
from rules import standings
from tests.ladder.helpers import concede

pytestmark = pytest.mark.django_db

RATINGS = {"ann": 1800.0, "ben": 1700.0, "cat": 1600.0, "dan": 1500.0, "eve": 1400.0, "fay": 1300.0}


@pytest.fixture
def organiser(db: None) -> Any:
    return get_user_model().objects.create_user("org", password=None, is_staff=True)


def refused(call: Any) -> str:
    with pytest.raises(CompetitionError) as caught:
        call()
    return caught.value.code


def opened(organiser: Any, members: Any, **options: Any) -> Competition:
    now = timezone.now()
    for m in members:
        Rating.objects.get_or_create(member=m, defaults={"rating": RATINGS[m.username], "rd": 60.0})
    row = service.open_competition(
        organiser, "Winter cup", now, now + timedelta(days=1), best_of=rules.BestOf(3), **options
    )
    for m in members:
        service.enter(row.pk, m, now)
    return row


def flagged(row: Competition) -> list[Pairing]:
    """Nobody came to any match to be played: every one flagged for an organiser."""
    settle_due(timezone.now() + timedelta(days=30), 50)
    return list(
        Pairing.objects.filter(competition=row, fixture__flagged=True).select_related(
            "fixture__first", "fixture__second"
        )
    )


def test_a_size_limit(organiser, members) -> None:
    ann, ben, cat, dan, *_ = members
    now = timezone.now()
    assert (
        refused(lambda: opened(organiser, [], max_entrants=1)) == "too_few_entrants"
    )  # a competition of one is no competition
    row = opened(organiser, [ann, ben, cat], max_entrants=3)
    assert refused(lambda: service.enter(row.pk, dan, now)) == "full"
    assert refused(lambda: service.add_entrant(row.pk, dan, organiser, now)) == "full"
    service.withdraw(row.pk, cat, now)
    service.enter(row.pk, dan, now)
    assert Entrant.objects.filter(competition=row).count() == 3


def test_only_a_ladders_members_enter_a_ladders_competition(organiser, members) -> None:
    ann, ben, cat, *_ = members
    now = timezone.now()
    main = Ladder.objects.create(name="Seniors", slug="seniors")
    for position, m in enumerate((ann, ben), start=1):
        Rung.objects.create(ladder=main, member=m, position=position, joined=now, last_active=now)
    other = Ladder.objects.create(name="Juniors", slug="juniors")
    Rung.objects.create(ladder=other, member=cat, position=1, joined=now, last_active=now)
    row = opened(organiser, [ann, ben], ladder_id=main.pk)
    assert refused(lambda: service.enter(row.pk, cat, now)) == "ladder_only"
    assert refused(lambda: service.add_entrant(row.pk, cat, organiser, now)) == "ladder_only"
    entered = Entrant.objects.filter(competition=row).values_list("member__username", flat=True)
    assert set(entered) == {"ann", "ben"}


def test_an_organiser_adds_and_removes_entrants_until_the_draw(organiser, members) -> None:
    ann, ben, cat, dan, *_ = members
    now = timezone.now()
    row = opened(organiser, [ann, ben])
    assert refused(lambda: service.add_entrant(row.pk, cat, ann, now)) == "organisers_only"
    assert refused(lambda: service.remove_entrant(row.pk, ben, ann, now)) == "organisers_only"
    service.close_entry(row.pk, organiser, now)
    assert refused(lambda: service.enter(row.pk, cat, now)) == "entry_closed"
    service.add_entrant(row.pk, cat, organiser, now)  # entry closed: an organiser still adds
    assert refused(lambda: service.add_entrant(row.pk, cat, organiser, now)) == "entered_already"
    service.add_entrant(row.pk, dan, organiser, now)
    service.remove_entrant(row.pk, dan, organiser, now)
    assert refused(lambda: service.remove_entrant(row.pk, dan, organiser, now)) == "not_entrant"
    service.draw(row.pk, organiser, now, seed=1)
    assert refused(lambda: service.add_entrant(row.pk, dan, organiser, now)) == "drawn_already"
    assert refused(lambda: service.remove_entrant(row.pk, cat, organiser, now)) == "drawn_already"
    names = Entrant.objects.filter(competition=row).values_list("member__username", flat=True)
    assert set(names) == {"ann", "ben", "cat"}


def test_both_out_of_a_knockout(organiser, members) -> None:
    """Both players of a flagged match are out, as if both withdrew: nobody goes on from it,
    and the next opponent goes through."""
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    pairing = next(p for p in flagged(row) if p.key == "w1.1")
    pair = {pairing.fixture.first_id, pairing.fixture.second_id}
    now = timezone.now()
    assert refused(lambda: service.both_out(row.pk, "w1.1", members[0], now)) == "organisers_only"
    service.both_out(row.pk, "w1.1", organiser, now, note="neither came")
    row.refresh_from_db()
    bracket = service.bracket_of(row)
    assert rules.match(bracket, rules.Key.parse("w1.1")).decision == rules.Decision(
        None, rules.How.BOTH_OUT
    )
    assert (
        set(
            Entrant.objects.filter(competition=row, withdrawn__isnull=False).values_list(
                "member_id", flat=True
            )
        )
        == pair
    )
    following = rules.match(bracket, rules.Key.parse("w2.0"))
    assert following.state is rules.State.DECIDED and following.winner not in pair
    assert refused(lambda: service.both_out(row.pk, "w1.1", organiser, now)) == "not_flagged"


def test_both_out_in_a_round_robin_is_a_walkover_both_lose(organiser, members) -> None:
    row = opened(organiser, members[:3], format="round_robin")
    service.draw(row.pk, organiser, timezone.now(), seed=1)
    pairing = flagged(row)[0]
    service.both_out(row.pk, pairing.key, organiser, timezone.now())
    (table,) = service.tables_of(
        list(Entrant.objects.filter(competition=row)),
        list(Decision.objects.filter(competition=row)),
    )
    figures = {t.member: t for t in table.tallies}
    for member in (pairing.fixture.first_id, pairing.fixture.second_id):
        assert (figures[member].played, figures[member].won, figures[member].lost) == (1, 0, 1)
        assert (figures[member].frames_won, figures[member].frames_lost) == (0, 2)
    assert standings.standings(table)  # the table still orders


def test_a_new_deadline_plays_a_flagged_match_again(organiser, members) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    pairing = next(p for p in flagged(row) if p.key == "w1.1")
    old_match = pairing.fixture.match_id
    now = timezone.now()
    later = now + timedelta(days=3)
    assert refused(lambda: service.new_deadline(row.pk, "w1.1", later, members[0], now)) == (
        "organisers_only"
    )
    assert refused(lambda: service.new_deadline(row.pk, "w1.1", now, organiser, now)) == (
        "bad_deadline"
    )
    service.new_deadline(row.pk, "w1.1", later, organiser, now)
    fixture = Fixture.objects.select_related("match").get(pk=pairing.fixture_id)
    assert (fixture.status, fixture.play_by, fixture.flagged, fixture.outcome) == (
        "to_play",
        later,
        False,
        "",
    )
    assert fixture.match is not None and fixture.match_id != old_match
    assert fixture.match.status == Match.Status.LIVE and fixture.match.best_of == 3
    assert refused(lambda: service.new_deadline(row.pk, "w1.1", later, organiser, now)) == (
        "not_flagged"
    )
    concede(fixture.match, pairing.fixture.second)
    decision = Decision.objects.get(competition=row, key="w1.1")
    assert (decision.how, decision.winner_id) == ("played", pairing.fixture.first_id)


def test_a_result_played_away_is_recorded_never_rated(organiser, members) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    now = timezone.now()
    pairings = {p.key: p for p in Pairing.objects.filter(competition=row).select_related("fixture")}
    one, other = pairings["w1.1"].fixture, pairings["w1.3"].fixture
    winner = get_user_model().objects.get(pk=one.second_id)
    assert refused(lambda: service.record(row.pk, "w1.1", winner, members[0], now)) == (
        "organisers_only"
    )
    Match.objects.filter(pk=other.match_id).update(started=now)  # begun at the table
    begun = get_user_model().objects.get(pk=other.first_id)
    assert refused(lambda: service.record(row.pk, "w1.3", begun, organiser, now)) == (
        "not_recordable"
    )
    made = service.record(row.pk, "w1.1", winner, organiser, now, note="played at the pub")
    assert (made.how, made.winner_id) == ("recorded", winner.pk)
    one.refresh_from_db()
    assert one.status == "off"
    assert Match.objects.get(pk=one.match_id).status == Match.Status.ABANDONED
    assert not RatedResult.objects.filter(match_id=one.match_id).exists()
    row.refresh_from_db()
    bracket = service.bracket_of(row)
    assert winner.pk in rules.match(bracket, rules.Key.parse("w2.0")).players  # goes on
    assert refused(lambda: service.record(row.pk, "w1.1", winner, organiser, now)) == (
        "not_flagged"
    )


def test_a_round_robins_recorded_result_counts_its_frames(organiser, members) -> None:
    row = opened(organiser, members[:3], format="round_robin")
    service.draw(row.pk, organiser, timezone.now(), seed=1)
    pairing = Pairing.objects.select_related("fixture").filter(competition=row).first()
    assert pairing is not None
    f, now = pairing.fixture, timezone.now()
    winner = get_user_model().objects.get(pk=f.first_id)
    key = pairing.key
    for frames in (None, (1, 0), (2, 2), (3, 1)):
        call = lambda frames=frames: service.record(row.pk, key, winner, organiser, now, frames)  # noqa: E731
        assert refused(call) == "bad_frames"
    service.record(row.pk, pairing.key, winner, organiser, now, (2, 1))
    (table,) = service.tables_of(
        list(Entrant.objects.filter(competition=row)),
        list(Decision.objects.filter(competition=row)),
    )
    figures = {t.member: t for t in table.tallies}
    assert (figures[f.first_id].won, figures[f.first_id].frames_won) == (1, 2)
    assert (figures[f.second_id].lost, figures[f.second_id].frames_won) == (1, 1)


def test_the_audit_log_keeps_every_organisers_action(organiser, members) -> None:
    ann, ben, cat, dan, eve, fay = members
    now = timezone.now()
    row = opened(organiser, [ann, ben, cat, dan, eve])
    service.add_entrant(row.pk, fay, organiser, now, note="asked by phone")
    service.remove_entrant(row.pk, eve, organiser, now)
    service.withdraw(row.pk, cat, now)  # a member's own: not an organiser's action
    service.enter(row.pk, cat, now)
    service.withdraw(row.pk, cat, now, by=organiser)  # an organiser's: a removal
    service.add_entrant(row.pk, cat, organiser, now)
    service.close_entry(row.pk, organiser, now)
    service.draw(row.pk, organiser, now, seed=3)
    service.withdraw(row.pk, dan, now, by=organiser, note="misconduct")
    service.withdraw(row.pk, cat, now)  # a member's own: not an organiser's action
    pairing = flagged(row)[0]
    service.award(row.pk, pairing.key, pairing.fixture.first, organiser, now)
    log = list(Action.objects.filter(competition=row).order_by("pk"))
    assert [a.kind for a in log] == [
        "open", "add", "remove", "remove", "add", "close", "draw", "withdraw", "award"
    ]  # fmt: skip
    assert all(a.by_id == organiser.pk for a in log)
    assert [(a.member_id, a.note) for a in log if a.kind in ("add", "remove", "withdraw")] == [
        (fay.pk, "asked by phone"),
        (eve.pk, ""),
        (cat.pk, ""),
        (cat.pk, ""),
        (dan.pk, "misconduct"),
    ]
    assert log[-1].key == pairing.key
    with pytest.raises(ValueError):
        log[0].save()  # append-only
    with pytest.raises(ValueError):
        log[0].delete()


# --- the pages ----------------------------------------------------------------------------------
def logged_in(user: Any) -> Any:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_the_form_sets_a_size_limit_and_a_ladder(organiser) -> None:
    ladder = Ladder.objects.create(name="Seniors", name_ru="Ветераны", slug="seniors")
    staff = logged_in(organiser)
    form = staff.get("/competitions/new/").content.decode()
    assert 'name="max_entrants"' in form and 'name="ladder"' in form
    deadline = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = staff.post(
        "/competitions/new/",
        {"name": "Seniors' cup", "format": "knockout", "best_of": 3, "entry_deadline": deadline,
         "play_days": 7, "rated": "on", "reset": "on", "max_entrants": 8, "ladder": ladder.pk},
    )  # fmt: skip
    assert response.status_code == 302
    row = Competition.objects.get(name="Seniors' cup")
    assert (row.max_entrants, row.ladder_id) == (8, ladder.pk)
    html = staff.get(f"/competitions/{row.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="max-entrants"' in html and "Ветераны" in html


def test_a_full_competition_says_so(organiser, members) -> None:
    row = opened(organiser, members[:2], max_entrants=2)
    html = logged_in(members[2]).get(f"/competitions/{row.pk}/").content.decode()
    assert 'data-testid="full"' in html and 'data-testid="enter"' not in html
    response = logged_in(members[2]).post(f"/competitions/{row.pk}/enter/")
    assert response.status_code == 409 and "This competition is full." in response.content.decode()


def test_an_organiser_adds_and_removes_entrants_on_the_page(organiser, members) -> None:
    ann, ben, *_ = members
    row = opened(organiser, [ann, ben])
    staff, member = logged_in(organiser), logged_in(ann)
    page = f"/competitions/{row.pk}/"
    html = staff.get(page).content.decode()
    assert 'data-testid="add-entrant"' in html and 'data-testid="remove-ben"' in html
    assert 'data-testid="add-entrant"' not in member.get(page).content.decode()
    assert member.post(f"{page}entrants/add/", {"member": "cat"}).status_code == 403
    assert member.post(f"{page}entrants/remove/", {"member": "ben"}).status_code == 403
    assert staff.post(f"{page}entrants/add/", {"member": "nobody"}).status_code == 404
    assert staff.post(f"{page}entrants/add/", {"member": "cat", "note": "late"}).status_code == 302
    assert staff.post(f"{page}entrants/remove/", {"member": "ben"}).status_code == 302
    names = Entrant.objects.filter(competition=row).values_list("member__username", flat=True)
    assert set(names) == {"ann", "cat"}
    html = member.get(page).content.decode()
    assert 'data-testid="action-add"' in html and "late" in html  # members read the log
    assert 'data-testid="audit-log"' not in logged_out(page)
    assert staff.post(f"{page}draw/").status_code == 302
    html = staff.get(page).content.decode()
    assert 'data-testid="add-entrant"' not in html and 'data-testid="remove-' not in html
    response = staff.post(f"{page}entrants/add/", {"member": "ben"})
    assert response.status_code == 409 and "drawn already" in response.content.decode()


def logged_out(page: str) -> str:
    from django.test import Client

    return Client().get(page).content.decode()


def test_an_organiser_decides_flagged_matches_on_the_page(organiser, members) -> None:
    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    flagged(row)
    staff, member = logged_in(organiser), logged_in(members[0])
    page = f"/competitions/{row.pk}/"
    html = staff.get(page).content.decode()
    for testid in ("both-out-w1.1", "deadline-w1.1", "record-w1.1", "decide-w1.3"):
        assert f'data-testid="{testid}"' in html
    assert 'data-testid="both-out-' not in member.get(page).content.decode()
    later = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    for address, data in (
        ("both-out/", {"key": "w1.1"}),
        ("deadline/", {"key": "w1.3", "play_by": later}),
        ("record/", {"key": "w1.3", "winner": "dan"}),
    ):
        assert member.post(page + address, data).status_code == 403
    assert staff.post(f"{page}both-out/", {"key": "w1.1", "note": "nobody came"}).status_code == 302
    assert staff.post(f"{page}deadline/", {"key": "w1.3", "play_by": later}).status_code == 302
    fixture = Pairing.objects.get(competition=row, key="w1.3").fixture
    assert (fixture.status, fixture.flagged) == ("to_play", False)
    winner = fixture.first.username
    response = staff.post(f"{page}record/", {"key": "w1.3", "winner": winner, "note": "at a pub"})
    assert response.status_code == 302
    html = staff.get(page).content.decode()
    assert f'data-testid="fixture-w1.3" data-state="recorded" data-winner="{winner}"' in html
    assert "recorded by an organiser" in html
    assert 'data-state="walkover"' in html  # w1.1: both out, nobody goes through
    kinds = list(Action.objects.filter(competition=row).values_list("kind", flat=True))
    assert kinds == ["open", "draw", "both_out", "deadline", "record"]
    html = staff.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "записан организатором" in html


def test_a_round_robins_both_out_and_recorded_result_on_the_page(organiser, members) -> None:
    row = opened(organiser, members[:3], format="round_robin")
    service.draw(row.pk, organiser, timezone.now(), seed=1)
    first, second, _ = Pairing.objects.filter(competition=row).order_by("pk")
    staff, page = logged_in(organiser), f"/competitions/{row.pk}/"
    html = staff.get(page).content.decode()
    assert 'name="winner_frames"' in html  # a round robin's result has its frames
    winner = first.fixture.first.username
    data = {"key": first.key, "winner": winner, "winner_frames": 2, "loser_frames": 0}
    assert staff.post(f"{page}record/", data).status_code == 302
    flagged(row)
    assert staff.post(f"{page}both-out/", {"key": second.key}).status_code == 302
    html = staff.get(page).content.decode()
    assert f'data-testid="fixture-{first.key}" data-state="recorded"' in html
    assert f'data-testid="fixture-{second.key}" data-state="both_lost"' in html


def test_the_page_costs_the_same_for_an_organiser(organiser, members) -> None:
    from tests.queries import same_cost

    row = opened(organiser, members)
    service.draw(row.pk, organiser, timezone.now(), seed=3)
    staff = logged_in(organiser)
    same_cost(lambda: staff.get(f"/competitions/{row.pk}/"), lambda: flagged(row), most=16)
