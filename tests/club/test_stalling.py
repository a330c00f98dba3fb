"""No stalling (issue 36): in a match with no shot clock running for the turn, the player to
act who has not played for the club's stall time since their turn began can be claimed
against by the opponent at the table, whether they sit there or look in every 15 seconds; a
started friendly both players have left, whose turn has lasted as long, is abandoned. Through
the real services (presence, the match service, the no-shows pass), the clock set by the test.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client as HttpClient

from club import noshows, service
from game import presence as game_presence
from game import service as game_service
from game.models import Match
from game.protocol import client_in
from rules.challenges import Format
from rules.match import match_from_json
from rules.state import opponent
from tests.clock import SetClock
from tests.ladder.helpers import each_plays
from tests.ladder.test_ladder_concurrency import at_once

pytestmark = pytest.mark.django_db

STALL = 300  # seconds: the club's default (SNOOKER_STALL)
CHANNEL = {"A": "a-page", "B": "b-page"}
FRIENDLY = Format(1)  # no shot clock


def _started(members: Any, fmt: Format = FRIENDLY) -> Match:
    """Bob accepts Alice's challenge and both come to the table: the match starts now."""
    alice, bob, _ = members
    made = service.challenge(alice, bob, fmt)
    assert made.challenge is not None
    match = service.accept(bob, made.challenge.pk).match
    assert match is not None
    for seat, channel in CHANNEL.items():
        game_presence.connect(match.pk, channel, seat)  # type: ignore[arg-type]
    match.refresh_from_db()
    assert match.started is not None
    return match


def _to_act(match: Match) -> tuple[Any, Any]:
    """(the seat to act, the other seat)."""
    seat = match_from_json(Match.objects.get(pk=match.pk).state).frame.to_act
    assert seat is not None
    return seat, opponent(seat)


def _user(match: Match, seat: str) -> Any:
    row = Match.objects.select_related("player_a", "player_b").get(pk=match.pk)
    return row.player_a if seat == "A" else row.player_b


def _claim(match: Match, seat: str, client_id: str = "claim") -> str:
    """The player in `seat` claims the match: "" if it was applied, else the refusal's code."""
    message = client_in.Claim(type="claim", client_id=client_id, scope="match")
    try:
        game_service.submit(match.pk, _user(match, seat), message)
    except game_service.ServiceError as refused:
        return refused.code
    return ""


def _beat(clock: SetClock, seconds: float, *channels: str) -> None:
    """Time passes; the process's heartbeat keeps these sockets' rows alive."""
    clock.move(seconds)
    game_presence.beat(list(channels))


def test_a_player_who_sits_at_the_table_without_playing_can_be_claimed(
    members: Any, set_clock: SetClock
) -> None:
    match = _started(members)
    staller, claimant = _to_act(match)
    _beat(set_clock, STALL - 1, *CHANNEL.values())  # both at the table all along
    assert _claim(match, claimant) == "not_claimable"
    assert game_presence.why_not_claim(Match.objects.get(pk=match.pk), claimant) == "stalling"
    # The presence every page reads says when (the claim against the staller).
    seats = game_presence.presence(match.pk).players
    assert seats[staller].claim_from == match.started + timedelta(seconds=STALL)
    assert seats[staller].online and seats[claimant].claim_from is None
    assert _claim(match, staller) == "not_claimable"  # the staller claims nothing
    _beat(set_clock, 1, *CHANNEL.values())
    assert _claim(match, claimant) == ""
    row = Match.objects.get(pk=match.pk)
    state = match_from_json(row.state)
    assert row.status == Match.Status.FINISHED and state.winner == claimant
    assert state.termination == "claimed"


def test_looking_in_every_15_seconds_does_not_defeat_it(members: Any, set_clock: SetClock) -> None:
    """The staller's absences never last the grace, and each coming back is a fresh arrival:
    the stall is counted from the turn's beginning all the same."""
    match = _started(members)
    staller, claimant = _to_act(match)
    for n in range(STALL // 15):
        game_presence.disconnect(match.pk, CHANNEL[staller], staller)
        _beat(set_clock, 10, CHANNEL[claimant])
        game_presence.connect(match.pk, f"{CHANNEL[staller]}-{n}", staller)
        _beat(set_clock, 5, CHANNEL[claimant], f"{CHANNEL[staller]}-{n}")
        if n < STALL // 15 - 1:
            assert _claim(match, claimant, f"early{n}") == "not_claimable", n
    assert _claim(match, claimant) == ""


def test_playing_starts_the_turn_again(members: Any, set_clock: SetClock) -> None:
    match = _started(members)
    _beat(set_clock, STALL - 20, *CHANNEL.values())
    each_plays(match, "s")  # both strike: whoever is to act now, their turn began now
    _, claimant = _to_act(match)
    _beat(set_clock, 21, *CHANNEL.values())
    assert _claim(match, claimant, "too-soon") == "not_claimable"
    _beat(set_clock, STALL - 21, *CHANNEL.values())
    assert _claim(match, claimant) == ""


def test_a_running_shot_clock_answers_a_stall_instead(members: Any, set_clock: SetClock) -> None:
    """A rated match has a clock: its expiry is the time foul, not a claim."""
    match = _started(members, Format(1, None, rated=True))
    assert match.shot_clock == 120
    _, claimant = _to_act(match)
    _beat(set_clock, STALL * 2, *CHANNEL.values())
    assert game_presence.why_not_claim(Match.objects.get(pk=match.pk), claimant) == (
        "opponent_here"
    )


def test_a_started_friendly_both_players_left_is_abandoned(
    members: Any, set_clock: SetClock
) -> None:
    match = _started(members)
    _beat(set_clock, 10, *CHANNEL.values())
    for seat, channel in CHANNEL.items():
        game_presence.disconnect(match.pk, channel, seat)  # type: ignore[arg-type]
    set_clock.move(STALL - 11)
    assert noshows.abandon_due(set_clock.now()) == []  # the turn has not lasted the stall
    set_clock.move(1)
    done = noshows.abandon_due(set_clock.now())
    assert [gone.match for gone in done] == [match.pk] and done[0].started
    assert done[0].presence.abandoned and done[0].presence.started is not None
    row = Match.objects.get(pk=match.pk)
    assert row.status == Match.Status.ABANDONED and row.started is not None
    _, claimant = _to_act(match)
    game_presence.connect(match.pk, "back", claimant)
    assert _claim(match, claimant) == "deserted"
    page = HttpClient().get(f"/match/{match.pk}/").content.decode()
    assert "both players had left the table" in page
    russian = HttpClient(HTTP_ACCEPT_LANGUAGE="ru").get(f"/match/{match.pk}/").content.decode()
    assert "оба игрока покинули стол" in russian


def test_a_player_still_at_the_table_keeps_the_match(members: Any, set_clock: SetClock) -> None:
    """One left, the other stays: not deserted; the one who stays may claim, for the absence
    or the stall, whichever comes first; a player who came back just before the pass keeps
    it too."""
    match = _started(members)
    staller, claimant = _to_act(match)
    game_presence.disconnect(match.pk, CHANNEL[claimant], claimant)
    _beat(set_clock, STALL * 3, CHANNEL[staller])
    assert noshows.abandon_due(set_clock.now()) == []
    game_presence.disconnect(match.pk, CHANNEL[staller], staller)
    game_presence.connect(match.pk, "back", claimant)  # back just in time
    _beat(set_clock, 1, "back")
    assert noshows.abandon_due(set_clock.now()) == []
    assert Match.objects.get(pk=match.pk).status == Match.Status.LIVE
    assert _claim(match, claimant) == ""  # away for long, and stalling: either way


@pytest.mark.django_db(transaction=True)
def test_a_player_coming_back_to_claim_races_the_pass(members: Any, set_clock: SetClock) -> None:
    """Both left a started friendly; one comes back and claims just as the pass judges it
    deserted: it is claimed or abandoned, never both (the pass writes only at the version
    judged and while no player's socket is live; the claim needs the match live). On
    PostgreSQL in CI, as two sessions."""
    match = _started(members)
    staller, claimant = _to_act(match)
    for seat, channel in CHANNEL.items():
        game_presence.disconnect(match.pk, channel, seat)  # type: ignore[arg-type]
    set_clock.move(STALL + 60)

    def comes_back_and_claims() -> str:
        game_presence.connect(match.pk, "back", claimant)
        for n in range(20):  # as the page does when SQLite's other writer holds the lock
            refused = _claim(match, claimant, f"claim{n}")
            if refused != "busy":
                return refused
        return "busy"

    results = at_once(lambda: noshows.abandon_due(set_clock.now()), comes_back_and_claims)
    row = Match.objects.get(pk=match.pk)
    if row.status == Match.Status.ABANDONED:
        assert len(results[0]) == 1 and results[1] == "deserted", results
    else:
        assert row.status == Match.Status.FINISHED, results
        assert match_from_json(row.state).winner == claimant and results[0] == []
    assert staller != claimant


def test_the_challenge_form_says_a_rated_match_has_a_clock(members: Any) -> None:
    client = HttpClient()
    client.force_login(members[0])
    form = client.get("/challenges/new/").content.decode()
    assert "A rated match without one gets 120 seconds a stroke." in form
    assert "120 seconds a stroke</option>" in form  # the generous clock is offered too
    russian = client.get("/challenges/new/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Рейтинговый матч без таймера получает 120 секунд на удар." in russian
