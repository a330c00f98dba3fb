"""Issue 36's ways to a default without playing, each through the real ladder service and its
settling passes (`settle_due`, as ladder/jobs.py runs it), and a scheduled match that starts
at its time. The ladder's rule is the club's default throughout: "the challenger takes the
win" (ben challenges ann, who is above him). The passes are given the time (`now`); the
players' sockets are the match service's own calls."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from fixtures import service as fixtures_service
from game import presence as game_presence
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from game.service import ServiceError
from ladder import service
from ladder.models import HistoryEntry, Ladder, LadderChallenge
from rules.fixtures import ALONE_LONG
from rules.presence import Refusal
from tests.ladder.helpers import each_plays, on_ladder, order, row_of

pytestmark = pytest.mark.django_db


def _beat(channel_names: list[str]) -> None:
    """The players' process's heartbeat for these sockets (presence.beat)."""
    from game.models import Connection

    game_presence.beat(
        {
            c: (m, seat)
            for c, m, seat in Connection.objects.filter(channel_name__in=channel_names).values_list(
                "channel_name", "match_id", "seat"
            )
        }
    )


SECONDS = timedelta(seconds=1)


def come(match: Match, user: Any, channel: str, now: datetime | None = None) -> None:
    seat = game_service.seat_of(match, user)
    assert seat is not None
    game_presence.connect(match.pk, channel, seat, now=now)


def leave(match: Match, user: Any, channel: str, now: datetime | None = None) -> None:
    seat = game_service.seat_of(match, user)
    assert seat is not None
    game_presence.disconnect(match.pk, channel, seat, now=now)


def passes(start: datetime, minutes: float) -> Iterable[datetime]:
    """The settling passes every 30 s from `start` for `minutes`."""
    return (start + n * 30 * SECONDS for n in range(int(minutes * 2) + 1))


def settle_through(times: Iterable[datetime]) -> None:
    for at in times:
        service.settle_due(at)


def accept(client: Client, defender: Any, challenger: Any, main: Ladder, later: bool) -> Match:
    """The challenge made, and accepted on its page: "play now" or "agree a time"."""
    done = service.challenge(main.pk, challenger, defender)
    assert done.challenge is not None
    client.force_login(defender)
    data = {"when": "later"} if later else {}
    page = client.post(f"/challenges/{done.challenge.challenge_id}/accept/", data)
    match = Match.objects.get(fixture__ladder_challenge=done.challenge)
    assert page.status_code == 302 and page["Location"] == f"/match/{match.pk}/"
    return match


def settled(match: Match) -> LadderChallenge:
    row = row_of(match)
    assert row.fixture.play_by is not None
    service.settle_due(row.fixture.play_by + SECONDS)
    row.refresh_from_db()
    return row


@pytest.fixture
def pair(members, main):  # type: ignore[no-untyped-def]
    ann, ben, *_ = members
    on_ladder(main, ann, ben)
    assert main.default_result == Ladder.Default.CHALLENGER_WINS
    return ann, ben


# --- the attacks ---------------------------------------------------------------------------------
def test_a_look_in_while_the_defender_is_away_does_not_beat_her_waiting(pair, main) -> None:
    """No time agreed: ann came and waited at the table for six minutes; later ben opens the
    match page for two seconds. Both "came", but only she waited: she wins (flagged: he looked
    in), not the ladder's rule."""
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=False)
    t0 = timezone.now()
    come(match, ann, "ann-1")
    settle_through(passes(t0, 6))
    leave(match, ann, "ann-1")
    come(match, ben, "ben-1")
    leave(match, ben, "ben-1")
    row = settled(match)
    assert row.fixture.second_alone >= ALONE_LONG and row.fixture.first_alone == timedelta(0)
    assert (row.outcome, row.winner, row.absent, row.flagged) == (
        "no_show",
        ann,
        "challenger",
        True,
    )
    assert order(main) == ["ann", "ben"]


def test_looking_in_at_the_agreed_time_and_leaving_before_she_comes(pair, main) -> None:
    """The agreed time is 19:00; ben looks in at 19:00 and leaves at 19:01; ann comes at 19:03,
    a little late, and waits. She is not the loser: she wins."""
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=True)
    row = row_of(match)
    now = timezone.now()
    start = now + timedelta(days=1)
    service.propose_start(row.pk, ben, start, now=now)
    service.accept_start(row.pk, ann, start, now=now)
    come(match, ben, "ben-1")
    settle_through(passes(start, 1))
    leave(match, ben, "ben-1")
    come(match, ann, "ann-1")
    settle_through(passes(start + timedelta(minutes=3), 6))
    leave(match, ann, "ann-1")
    row = settled(match)
    assert (row.fixture.first_waited, row.fixture.second_waited) == (True, True)  # both "came"
    assert row.fixture.first_alone < ALONE_LONG <= row.fixture.second_alone
    assert (row.outcome, row.winner, row.absent) == ("no_show", ann, "challenger")
    assert order(main) == ["ann", "ben"]


def test_sitting_at_the_table_without_striking_when_behind(pair, main) -> None:
    """Best of 3: they play, ben gives up the first frame (0-1), and then sits at the table
    without striking until the window closes. The match is decided by its state: ann wins."""
    ann, ben = pair
    main.best_of = 3
    main.save()
    match = accept(Client(), ann, ben, main, later=False)
    come(match, ben, "ben-1")
    come(match, ann, "ann-1")
    each_plays(match)
    game_service.submit(
        match.pk, ben, client_in.Concede(type="concede", client_id="f", scope="frame")
    )
    leave(match, ann, "ann-1")  # she gives up waiting for his stroke; he sits on
    row = row_of(match)
    settle_through(passes(timezone.now(), 6))
    row = settled(match)
    assert (row.outcome, row.winner, row.absent, row.flagged) == ("unfinished", ann, "", True)
    entry = HistoryEntry.objects.get(kind="result")
    assert (entry.member, entry.other, entry.how, entry.flagged) == (ann, ben, "unfinished", True)
    assert order(main) == ["ann", "ben"]
    history = Client().get("/ladder/history/").content.decode()
    assert "ann wins: the match was not finished in time, and ann was ahead" in history
    assert "for the organisers to look at" in history


def test_a_started_match_left_level_moves_nobody(pair, main) -> None:
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=False)
    come(match, ben, "ben-1")
    come(match, ann, "ann-1")  # started; nothing played
    row = settled(match)
    assert (row.outcome, row.winner, row.flagged) == ("unfinished", None, True)
    assert HistoryEntry.objects.get(kind="settled").how == "unfinished"
    assert order(main) == ["ann", "ben"]


def test_both_waited_at_different_times_moves_nobody(pair, main) -> None:
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=False)
    t0 = timezone.now()
    come(match, ann, "ann-1")
    settle_through(passes(t0, 6))
    leave(match, ann, "ann-1")
    come(match, ben, "ben-1")
    settle_through(passes(t0 + timedelta(hours=1), 6))
    row = settled(match)
    assert (row.outcome, row.winner, row.absent, row.flagged) == ("unplayed", None, "neither", True)
    assert order(main) == ["ann", "ben"]


# --- a scheduled match starts at its time --------------------------------------------------------
def test_agree_a_time_holds_the_match_until_a_time_is_agreed_and_it_comes(
    pair, main, set_clock
) -> None:
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=True)
    row = row_of(match)
    match.refresh_from_db()
    assert match.not_before == row.fixture.play_by  # no time agreed yet: nothing starts it
    come(match, ben, "ben-1")
    come(match, ann, "ann-1")
    match.refresh_from_db()
    assert match.started is None  # both here, and still not started
    now = set_clock.now()
    start = now + timedelta(hours=2)
    service.propose_start(row.pk, ben, start, now=now)
    service.accept_start(row.pk, ann, start, now=now)
    match.refresh_from_db()
    assert match.not_before == start and match.started is None
    set_clock.move(3600)
    _beat(["ben-1", "ann-1"])
    assert Match.objects.get(pk=match.pk).started is None  # an hour early: still nothing
    set_clock.move(3600)
    _beat(["ben-1", "ann-1"])  # the time came with both at the table
    assert Match.objects.get(pk=match.pk).started == start


def test_with_a_time_agreed_the_one_who_left_cannot_be_claimed_against_before_it(
    pair, main, set_clock
) -> None:
    """The issue's case: accepted to play now, both went to the table (the match started),
    then they agreed "tomorrow 19:00" and ann left. Minutes later ben claims: refused until
    the agreed time; and being at the table before it does not start the match again."""
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=False)
    come(match, ben, "ben-1")
    come(match, ann, "ann-1")
    match.refresh_from_db()
    assert match.started is not None
    row = row_of(match)
    now = set_clock.now()
    start = now + timedelta(days=1)
    service.propose_start(row.pk, ben, start, now=now)
    service.accept_start(row.pk, ann, start, now=now)
    leave(match, ann, "ann-1")
    set_clock.move(600)  # ten minutes: long past the reconnect grace
    _beat(["ben-1"])  # he is still here
    match.refresh_from_db()
    assert match.started is None  # nothing was played: it starts at the agreed time
    assert game_presence.why_not_claim(match, "A") is Refusal.BEFORE_START
    claim = client_in.Claim(type="claim", client_id="k", scope="match")
    with pytest.raises(ServiceError) as refused:
        game_service.submit(match.pk, ben, claim)
    assert refused.value.code == "not_claimable"
    come(match, ann, "ann-2")  # she looks in: still no start before the time
    assert Match.objects.get(pk=match.pk).started is None
    assert game_presence.presence(match.pk).players["A"].claim_from is None


def test_a_resumption_time_protects_a_match_already_under_way(pair, main, set_clock) -> None:
    """Strokes were played, then they agreed to go on tomorrow: the match keeps its start, and
    nobody can claim before the agreed time; from it, the grace counts."""
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=False)
    come(match, ben, "ben-1")
    come(match, ann, "ann-1")
    each_plays(match)
    row = row_of(match)
    now = set_clock.now()
    start = now + timedelta(days=1)
    service.propose_start(row.pk, ben, start, now=now)
    service.accept_start(row.pk, ann, start, now=now)
    leave(match, ann, "ann-1")
    set_clock.move(600)
    _beat(["ben-1"])  # he is still here
    match.refresh_from_db()
    assert match.started is not None
    assert game_presence.why_not_claim(match, "A") is Refusal.BEFORE_START
    assert game_presence.presence(match.pk).players["B"].claim_from == start + timedelta(
        seconds=match.reconnect_grace
    )
    set_clock.move(86400 - 600 + match.reconnect_grace)
    _beat(["ben-1"])
    assert game_presence.why_not_claim(match, "A") is None


def test_the_challenge_page_offers_play_now_or_agree_a_time_and_the_match_page_says_so(
    pair, main
) -> None:
    ann, ben = pair
    done = service.challenge(main.pk, ben, ann)
    assert done.challenge is not None
    client = Client()
    client.force_login(ann)
    page = client.get(f"/challenges/{done.challenge.challenge_id}/").content.decode()
    assert 'data-testid="accept-later"' in page and "Accept and play now" in page
    client.post(f"/challenges/{done.challenge.challenge_id}/accept/", {"when": "later"})
    match = Match.objects.get(fixture__ladder_challenge=done.challenge)
    shown = client.get(f"/match/{match.pk}/").content.decode()
    assert 'data-testid="held"' in shown
    assert "goes against a player who did not come while the other was waiting" not in shown
    assert "decided by its score" in shown and "the challenger takes the win" in shown
    ru = client.get(f"/match/{match.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "по счёту" in ru


def test_two_passes_count_a_stretch_alone_once(pair, main) -> None:
    """Every process runs the passes: one that read the sighting before another's write
    counts nothing (its write is conditional on the sighting it read), and a second pass at
    the same moment adds nothing."""
    ann, ben = pair
    match = accept(Client(), ann, ben, main, later=False)
    t0 = timezone.now()
    come(match, ann, "ann-1")
    service.settle_due(t0)
    service.settle_due(t0 + 30 * SECONDS)
    service.settle_due(t0 + 30 * SECONDS)  # another process, the same moment
    row = row_of(match)
    seen = (row.fixture.second_alone, row.fixture.second_seen_alone)
    assert seen == (30 * SECONDS, t0 + 30 * SECONDS)
    # A pass that read the sighting at t0 (before the write above) writes nothing.
    late = {"second_alone": 60 * SECONDS, "second_seen_alone": t0 + 60 * SECONDS}
    assert fixtures_service.record(row.fixture_id, None, {"second_seen_alone": t0}, late) == 0
    row.fixture.refresh_from_db()
    assert row.fixture.second_alone == 30 * SECONDS
