"""Playing a ladder match: the agreed start time (proposed, accepted, reminded), who was at
the table for it, the default of a match not played (never rewarding absence, flagged when
neither or both came), and the cool-down between two members. A controlled clock throughout
(`now`); the players' sockets are the match service's own calls."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from club import service as club_service
from game import presence as game_presence
from game import service as game_service
from game.models import Match
from ladder import jobs, service
from ladder.models import HistoryEntry, Ladder, LadderChallenge
from ladder.service import LadderError
from tests.club.helpers import LobbyClient
from tests.ladder.helpers import accepted, concede, on_ladder, order, row_of

pytestmark = pytest.mark.django_db


def refused(call) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(LadderError) as err:
        call()
    return err.value.code


def agree(row: LadderChallenge, proposer: Any, accepter: Any, at: datetime, now: datetime) -> None:
    service.propose_start(row.pk, proposer, at, now=now)
    service.accept_start(row.pk, accepter, at, now=now)


def come(match: Match, user: Any, channel: str) -> None:
    """The player's socket comes to the table (as the match's consumer calls it)."""
    seat = game_service.seat_of(match, user)
    assert seat is not None
    game_presence.connect(match.pk, channel, seat)


def leave(match: Match, user: Any, channel: str) -> None:
    seat = game_service.seat_of(match, user)
    assert seat is not None
    game_presence.disconnect(match.pk, channel, seat)


# --- the start time --------------------------------------------------------------------------
def test_a_start_time_is_proposed_by_one_and_accepted_by_the_other(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    row = row_of(accepted(main, ben, ann))
    now = timezone.now()
    at = now + timedelta(days=1)
    service.propose_start(row.pk, ben, at, now=now)
    row.refresh_from_db()
    fixture = row.fixture
    assert (fixture.proposed_start, fixture.proposed_by, fixture.start_at) == (at, ben, None)
    assert refused(lambda: service.accept_start(row.pk, ben, at, now=now)) == "own_proposal"
    # A page showing an older proposal does not accept the newer one.
    later = at + timedelta(hours=2)
    service.propose_start(row.pk, ben, later, now=now)
    assert refused(lambda: service.accept_start(row.pk, ann, at, now=now)) == "proposal_changed"
    service.accept_start(row.pk, ann, later, now=now)
    row.refresh_from_db()
    fixture = row.fixture
    assert (fixture.start_at, fixture.proposed_start, fixture.proposed_by) == (later, None, None)
    # Another proposal leaves the agreed time standing until it is accepted.
    service.propose_start(row.pk, ann, at, now=now)
    row.refresh_from_db()
    assert (row.fixture.start_at, row.fixture.proposed_start) == (later, at)
    # Proposing the very time the other proposed agrees to it.
    service.propose_start(row.pk, ben, at, now=now)
    row.refresh_from_db()
    assert (row.fixture.start_at, row.fixture.proposed_start) == (at, None)


def test_only_the_two_players_and_only_inside_the_window(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    row = row_of(accepted(main, ben, ann))
    assert row.fixture.play_by is not None
    now = timezone.now()
    at = now + timedelta(days=1)
    # Anyone else finds no such match (a refusal tells nothing of another pair's plans).
    assert refused(lambda: service.propose_start(row.pk, cat, at, now=now)) == "no_such_match"
    assert refused(lambda: service.propose_start(99999, ben, at, now=now)) == "no_such_match"
    past = now - timedelta(minutes=1)
    assert refused(lambda: service.propose_start(row.pk, ben, past, now=now)) == "start_passed"
    late = row.fixture.play_by - timedelta(minutes=5)  # leaves no waiting time before the deadline
    assert refused(lambda: service.propose_start(row.pk, ben, late, now=now)) == (
        "start_outside_window"
    )
    service.propose_start(row.pk, ben, at, now=now)
    assert refused(lambda: service.accept_start(row.pk, cat, at, now=now)) == "no_such_match"
    # A proposal whose time has passed is no longer accepted.
    after = at + timedelta(minutes=1)
    assert refused(lambda: service.accept_start(row.pk, ann, at, now=after)) == "start_passed"
    row.refresh_from_db()
    assert row.fixture.start_at is None


def test_no_start_time_once_the_match_is_over(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    concede(match, ann)
    at = timezone.now() + timedelta(days=1)
    assert refused(lambda: service.propose_start(row.pk, ben, at)) == "not_to_be_played"


def test_both_are_reminded_once_a_quarter_of_an_hour_before(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    row = row_of(accepted(main, ben, ann))
    now = timezone.now()
    start = now + timedelta(days=1)
    agree(row, ben, ann, start, now)
    assert service.settle_due(start - timedelta(minutes=16)).reminders == ()
    assert service.settle_due(start - timedelta(minutes=15)).reminders == (row.pk,)
    assert service.settle_due(start - timedelta(minutes=10)).reminders == ()  # once
    # A new agreed time is reminded again.
    again = start + timedelta(hours=3)
    agree(row, ann, ben, again, start - timedelta(minutes=5))
    assert service.settle_due(again - timedelta(minutes=1)).reminders == (row.pk,)


@pytest.mark.django_db(transaction=True)
async def test_the_job_reminds_both_players_on_their_sockets(members, main) -> None:
    ann, ben, *_ = members
    now = timezone.now()
    start = now + timedelta(days=1)

    def setup() -> LadderChallenge:
        on_ladder(main, ann, ben)
        row = row_of(accepted(main, ben, ann))
        agree(row, ben, ann, start, now)
        assert row.fixture.match_id is not None  # (its fixture read here, not in the loop)
        return row

    row = await database_sync_to_async(setup)()
    sockets = [LobbyClient(u, lobby=False) for u in (ann, ben)]
    try:
        for socket in sockets:
            await socket.open()
        done = await jobs.settle(start - timedelta(minutes=14))
        assert done.reminders == (row.pk,)
        for socket, other in zip(sockets, ("ben", "ann"), strict=True):
            reminder = await socket.expect("reminder")  # checked against its schema
            assert reminder["opponent"] == other
            assert reminder["challenge"]["match"] == row.fixture.match_id
            assert datetime.fromisoformat(reminder["at"]) == start
    finally:
        for socket in sockets:
            await socket.ws.disconnect()


# --- who came, and the default of an unplayed match -------------------------------------------
def _deadline(row: LadderChallenge) -> datetime:
    row.refresh_from_db()
    assert row.fixture.play_by is not None
    return row.fixture.play_by + timedelta(seconds=1)


def test_a_challenger_who_never_comes_loses_to_the_defender_who_waited(members, main) -> None:
    """The issue's case: the defender accepts and waits; the challenger never comes. The
    ladder's rule would give the challenger the win; absence is never rewarded."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    assert main.default_result == Ladder.Default.CHALLENGER_WINS
    match = accepted(main, ben, ann)
    row = row_of(match)
    come(match, ann, "ann-1")
    leave(match, ann, "ann-1")
    service.settle_due(_deadline(row))
    row.refresh_from_db()
    assert (row.outcome, row.winner, row.absent, row.flagged) == (
        "no_show",
        ann,
        "challenger",
        False,
    )
    entry = HistoryEntry.objects.get(kind="result")
    assert (entry.member, entry.other, entry.how, entry.flagged) == (ann, ben, "no_show", False)
    assert order(main) == ["ann", "ben"]  # the defender keeps the place


def test_a_defender_who_never_comes_loses_whatever_the_rule(members, main) -> None:
    ann, ben, *_ = members
    main.default_result = Ladder.Default.DEFENDER_WINS
    main.save()
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    come(match, ben, "ben-1")
    service.settle_due(_deadline(row))
    row.refresh_from_db()
    assert (row.outcome, row.winner, row.absent, row.flagged) == ("no_show", ben, "defender", False)
    assert order(main) == ["ben", "ann"]


@pytest.mark.parametrize("both_came", [False, True])
def test_neither_or_both_came_the_ladders_rule_flagged(members, main, both_came) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    if both_came:  # at different times, never together: no result either way
        come(match, ann, "ann-1")
        leave(match, ann, "ann-1")
        come(match, ben, "ben-1")
    service.settle_due(_deadline(row))
    row.refresh_from_db()
    absent = "neither" if both_came else "both"
    assert (row.outcome, row.winner, row.absent, row.flagged) == ("unplayed", ben, absent, True)
    entry = HistoryEntry.objects.get(kind="result")
    assert (entry.member, entry.how, entry.flagged) == (ben, "unplayed", True)
    assert order(main) == ["ben", "ann"]  # challenger_wins: the ladder's rule


def test_with_an_agreed_time_who_was_there_at_that_time_counts(members, main) -> None:
    """The challenger came the day before and left; at the agreed time the defender waited
    and the challenger did not come: the challenger loses, although both came at some time."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    now = timezone.now()
    start = now + timedelta(days=1)
    agree(row, ben, ann, start, now)
    come(match, ben, "ben-1")  # now: a day early
    leave(match, ben, "ben-1")
    come(match, ann, "ann-1")  # and stays
    assert service.settle_due(start - timedelta(minutes=1)).waited == ()  # not yet its time
    assert service.settle_due(start + timedelta(minutes=2)).waited == (row.pk,)
    row.refresh_from_db()
    assert (row.fixture.first_waited, row.fixture.second_waited) == (False, True)
    assert service.settle_due(start + timedelta(minutes=3)).waited == ()  # recorded already
    leave(match, ann, "ann-1")
    service.settle_due(_deadline(row))
    row.refresh_from_db()
    assert (row.outcome, row.winner, row.absent) == ("no_show", ann, "challenger")


def test_a_stale_proposal_accepted_after_the_start_keeps_who_waited(members, main) -> None:
    """Issue 36: the defender proposed another time, then came at the agreed one and waited;
    the challenger, who never came, accepts her old proposal afterwards. The record that she
    waited stays, and the default goes to her."""
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    now = timezone.now()
    start = now + timedelta(days=1)
    agree(row, ben, ann, start, now)
    service.propose_start(row.pk, ann, start + timedelta(hours=2), now=now)  # a counter-proposal
    come(match, ann, "ann-1")
    assert service.settle_due(start + timedelta(minutes=2)).waited == (row.pk,)
    leave(match, ann, "ann-1")
    service.accept_start(row.pk, ben, start + timedelta(hours=2), now=start + timedelta(minutes=15))
    row.refresh_from_db()
    assert row.fixture.start_at == start + timedelta(hours=2)
    assert (row.fixture.first_waited, row.fixture.second_waited) == (False, True)  # still on record
    service.settle_due(_deadline(row))
    row.refresh_from_db()
    assert (row.outcome, row.winner, row.absent) == ("no_show", ann, "challenger")


def test_the_waiting_window_ends_ten_minutes_after_the_start(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    now = timezone.now()
    start = now + timedelta(days=1)
    agree(row, ben, ann, start, now)
    come(match, ben, "ben-1")
    assert service.settle_due(start + timedelta(minutes=11)).waited == ()
    service.settle_due(_deadline(row))
    row.refresh_from_db()
    # Nobody was seen at the agreed time (ben's arrival was a day early): the rule, flagged.
    assert (row.outcome, row.absent, row.flagged) == ("unplayed", "both", True)


def test_a_played_match_is_not_a_default(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    concede(match, ben)
    row = row_of(match)
    assert (row.outcome, row.absent, row.flagged) == ("played", "", False)


# --- the cool-down -----------------------------------------------------------------------------
def test_after_a_result_neither_challenges_the_other_until_the_cool_down_ends(
    members, main
) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    concede(accepted(main, ben, ann), ann)  # ben takes 1st
    assert order(main) == ["ben", "ann", "cat"]
    settled = row_of(Match.objects.get()).settled
    assert settled is not None
    assert refused(lambda: service.challenge(main.pk, ann, ben)) == "cooling_down"
    assert service.challenge(main.pk, cat, ben).challenge is not None  # others are free


def test_a_decline_starts_the_cool_down_and_it_ends(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    now = timezone.now()
    done = service.challenge(main.pk, ben, ann, now=now)
    assert done.challenge is not None
    club_service.decline(ann, done.challenge.challenge_id)
    settled = LadderChallenge.objects.get().settled
    assert settled is not None
    just_before = settled + main.cooldown - timedelta(seconds=1)
    assert refused(lambda: service.challenge(main.pk, ben, ann, now=just_before)) == (
        "cooling_down"
    )
    assert service.challenge(main.pk, ben, ann, now=settled + main.cooldown).challenge


def test_an_organisers_cancellation_starts_no_cool_down(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    service.challenge(main.pk, cat, ben)
    service.remove(main.pk, cat, by=ann)  # cat's challenge is cancelled, nobody's meeting
    assert LadderChallenge.objects.get().outcome == "cancelled"
    on_ladder(main, cat)
    assert service.challenge(main.pk, cat, ben).challenge is not None


def test_a_ladder_without_a_cool_down(members, main) -> None:
    ann, ben, *_ = members
    main.cooldown = timedelta(0)
    main.save()
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ben)
    assert service.challenge(main.pk, ben, ann).challenge is not None


# --- the pages -----------------------------------------------------------------------------------
def _local(at: datetime) -> str:
    """A time as the page's date-and-time field sends it (the site's time zone)."""
    return timezone.localtime(at).strftime("%Y-%m-%dT%H:%M")


def test_the_start_time_on_the_match_page_the_lobby_and_both_profiles(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    row = row_of(match)
    page = f"/match/{match.pk}/"
    challenger, defender, other = Client(), Client(), Client()
    challenger.force_login(ben)
    defender.force_login(ann)
    other.force_login(cat)
    html = challenger.get(page).content.decode()
    assert 'data-testid="no-agreed-start"' in html and 'data-testid="propose-start"' in html
    watching = other.get(page).content.decode()
    assert 'data-testid="ladder-start"' in watching and "propose-start" not in watching
    at = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    response = challenger.post(f"/ladder/matches/{row.pk}/start/", {"at": _local(at), "next": page})
    assert response.status_code == 302 and response["Location"] == page
    html = defender.get(page).content.decode()
    assert 'data-testid="proposed-start"' in html and 'data-testid="accept-start"' in html
    assert "accept-start" not in challenger.get(page).content.decode()  # not one's own
    # The accept form carries the proposal's own time, as the page showed it.
    shown = timezone.localtime(at).isoformat()
    assert f'name="at" value="{shown}"' in html
    response = defender.post(f"/ladder/matches/{row.pk}/start/accept/", {"at": shown})
    assert response.status_code == 302 and response["Location"] == page
    row.refresh_from_db()
    assert row.fixture.start_at == at
    stamp = f'datetime="{shown}"'
    assert 'data-testid="agreed-start"' in challenger.get(page).content.decode()
    for client in (challenger, defender):
        assert stamp in client.get("/").content.decode()  # the lobby
    for name in ("ann", "ben"):
        profile = other.get(f"/players/{name}/").content.decode()
        assert 'data-testid="ladder-to-play"' in profile and stamp in profile


def test_start_forms_need_their_csrf_token_and_a_player(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben)
    row = row_of(accepted(main, ben, ann))
    at = _local(timezone.now() + timedelta(days=1))
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ben)
    assert strict.post(f"/ladder/matches/{row.pk}/start/", {"at": at}).status_code == 403
    outsider = Client()
    outsider.force_login(cat)
    assert outsider.post(f"/ladder/matches/{row.pk}/start/", {"at": at}).status_code == 404
    anonymous = Client().post(f"/ladder/matches/{row.pk}/start/", {"at": at})
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    player = Client()
    player.force_login(ben)
    assert player.post(f"/ladder/matches/{row.pk}/start/", {"at": "soon"}).status_code == 400
    past = _local(timezone.now() - timedelta(hours=1))
    response = player.post(f"/ladder/matches/{row.pk}/start/", {"at": past})
    assert response.status_code == 409 and "must lie ahead" in response.content.decode()
    row.refresh_from_db()
    assert row.fixture.proposed_start is None


def test_the_ladder_page_says_why_a_member_may_not_be_challenged(members, main) -> None:
    ann, ben, cat, *_ = members
    on_ladder(main, ann, ben, cat)
    concede(accepted(main, cat, ben), cat)  # ben beats cat: they met
    client = Client()
    client.force_login(cat)
    html = client.get("/ladder/").content.decode()
    assert 'data-testid="cooling"' in html and "you met lately" in html
    assert 'data-testid="challenge-ben"' not in html and 'data-testid="challenge-ann"' in html
    assert "the same two challenge each other again after 7 days" in html
    russian = client.get("/ladder/", headers={"accept-language": "ru"}).content.decode()
    assert "you met lately" not in russian


def test_the_history_says_who_did_not_come(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    match = accepted(main, ben, ann)
    come(match, ann, "ann-1")
    service.settle_due(_deadline(row_of(match)))
    html = Client().get("/ladder/history/").content.decode()
    assert "ann wins: ben did not come to play" in html and 'data-testid="flagged"' not in html
    russian = Client().get("/ladder/history/", headers={"accept-language": "ru"})
    assert "Победа: ann — неявка игрока ben" in russian.content.decode()


def test_a_challenge_in_the_cool_down_is_refused_in_words(members, main) -> None:
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    concede(accepted(main, ben, ann), ben)  # ann keeps 1st: they met
    client = Client()
    client.force_login(ben)
    response = client.post(f"/ladder/{main.slug}/challenge/", {"defender": "ann"})
    assert response.status_code == 409
    assert "met on this ladder lately" in response.content.decode()
    russian = client.post(
        f"/ladder/{main.slug}/challenge/", {"defender": "ann"}, headers={"accept-language": "ru"}
    )
    assert russian.status_code == 409 and "недавно встречались" in russian.content.decode()
    assert LadderChallenge.objects.count() == 1  # nothing made
