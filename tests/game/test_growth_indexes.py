"""The reads on hot paths of what grows for ever (issue 42, "nothing that grows without
bound"): matches are kept for ever, and so are their figures; what the lobby, its socket's
welcome and the periodic passes read of them comes from indexes that hold what they ask for
(the live matches; the latest results; the recent rated matches), so that each costs the same
after years of play as on the first day. Checked on the database's own plan (tests/plans.py)
over a club with many finished matches beside a few live ones."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from club import friendlies, lobby, noshows
from club.models import Challenge
from computer import driver
from computer.service import play_computer
from game import service
from game.models import Match
from members.models import MatchFigures
from members.templatetags.records import recent_matches
from tests.computer.test_computer import seats
from tests.plans import plans, whole_reads

pytestmark = pytest.mark.django_db

_FIGURES = dict(best_of=1, won=True, frames_won=1, frames_lost=0, highest_break=0, centuries=0,
                fifties=0, breaks=0, break_points=0, pots=0, attempts=0, fouls=0, foul_points=0,
                won_on_black=0)  # fmt: skip


@pytest.fixture
def club() -> tuple[Any, Any, Match]:
    """Alice and Bob, 300 finished matches (rated, with their figures), an abandoned one, a
    live one between them and one against the computer."""
    users = get_user_model().objects
    alice, bob = users.create_user("alice"), users.create_user("bob")
    live = service.create_match(alice, bob, best_of=3, draw="A")
    done = [Match(player_a=alice, player_b=bob, best_of=1, status=Match.Status.FINISHED,
                  state=live.state, version=9, rated=True) for _ in range(300)]  # fmt: skip
    done.append(Match(player_a=alice, player_b=bob, best_of=1, state=live.state,
                      status=Match.Status.ABANDONED))  # fmt: skip
    Match.objects.bulk_create(done)
    now = timezone.now()
    MatchFigures.objects.bulk_create(
        MatchFigures(match=row, player=player, opponent=other, seat=seat, finished=now, **_FIGURES)
        for row in Match.objects.filter(status=Match.Status.FINISHED)
        for seat, player, other in (("A", alice, bob), ("B", bob, alice))
    )
    service.create_match(alice, seats()["novice"], best_of=1, draw="A")
    return alice, bob, live


# The partial indexes of the live matches alone (game/models.py).
LIVE = ("live_matches", "live_by_player_a", "live_by_player_b")


def _whole(run: Any, table: str = "game_match") -> list[tuple[str, list[str]]]:
    return whole_reads(run, table, partial=LIVE)


def test_the_lobby_and_its_welcome_read_only_the_live_matches(club: Any) -> None:
    """The lobby's list, its count of matches against the computer and a member's own live
    matches (every lobby page and every lobby socket's welcome): from the live matches'
    index, never a walk of every match ever played (before: `SCAN game_match`, each time)."""
    alice, _, live = club
    assert [row.pk for row in lobby.live_matches()] == [live.pk]
    assert lobby.computer_live() == 1
    assert _whole(lambda: list(lobby.live_matches())) == []
    assert _whole(lobby.computer_live) == []
    assert _whole(lambda: list(lobby.my_matches(alice))) == []


def test_the_periodic_passes_read_only_the_live_matches(club: Any) -> None:
    """The no-shows' pass, the idle computer's (every 30 s in every process) and the
    computer's resume pass (each minute): from the live matches' index."""
    now = timezone.now()
    assert _whole(lambda: noshows.abandon_due(now)) == []
    assert _whole(lambda: noshows.abandon_idle_computer(now)) == []
    assert _whole(lambda: driver._waiting(0, 100)) == []


def test_the_lobbys_latest_results_come_from_an_index(club: Any) -> None:
    """The latest ten results on every lobby page: read from `figures_recent` in order, not
    by sorting every finished match's figures (before: a scan and a sort of them all)."""
    assert len(list(recent_matches())) == 10
    assert whole_reads(lambda: list(recent_matches()), "members_matchfigures") == []


def test_the_ratings_catch_up_reads_only_the_recent_rated_matches(club: Any) -> None:
    """Every settling pass looks for rated friendlies whose rating their end missed: among
    those made in the last `MISSED_WITHIN` (30 days), from the `rated_finished` index, not
    among every rated match ever played; one older than that is left alone."""
    now = timezone.now()
    assert _whole(lambda: list(friendlies.missed(now))) == []
    assert friendlies.missed(now).count() == 300  # (the figures' rows alone: no results)
    Match.objects.filter(status=Match.Status.FINISHED).update(created=now - timedelta(days=31))
    assert friendlies.missed(now).count() == 0


def test_a_members_just_accepted_challenges_are_read_by_the_answers_time(club: Any) -> None:
    """Every lobby welcome looks for the member's challenges accepted in the last two minutes
    (`club.lobby.just_accepted`): from `challenge_just_accepted` by the answer's time, not
    through every challenge the member ever made (before: all of them, by challenger)."""
    alice, bob, _ = club
    now = timezone.now()
    played = iter(Match.objects.filter(status=Match.Status.FINISHED))
    Challenge.objects.bulk_create(
        Challenge(
            kind="direct",
            challenger=alice,
            target=bob,
            best_of=1,
            status=status,
            created=now - timedelta(hours=i),
            expires=now - timedelta(hours=i - 1),
            answered=now - timedelta(hours=i),
            match=next(played) if status == "accepted" else None,
        )
        for i in range(300)
        for status in ("declined", "accepted")
        if status == "declined" or i % 50 == 0
    )
    (found,) = plans(lambda: list(lobby.just_accepted(alice, now)), "club_challenge")
    if connection.vendor == "sqlite":  # (not through all of Alice's by `challenger_id=?`)
        by_answer = (
            "SEARCH club_challenge USING INDEX challenge_just_accepted"
            " (challenger_id=? AND answered>?)"
        )
        assert by_answer in found[1], found
    else:
        assert any("Index Cond" in line and "answered" in line for line in found[1]), found


def test_a_members_matches_of_the_hour_are_read_by_their_making(club: Any) -> None:
    """Each match against the computer a member asks for counts their matches of the last
    hour (at most 20 an hour): by `matches_by_player_a_made`, from the hour's start, not
    through every match they ever played as player A (a member at 20 an hour for a year: some
    175,000)."""
    alice, _, _ = club
    seat = seats()["novice"]
    found = plans(lambda: play_computer(alice, "novice", 1), "game_match")
    assert Match.objects.filter(player_a=alice, player_b=seat).count() == 2
    counted = [lines for sql, lines in found if "COUNT(*)" in sql and '"created" >=' in sql]
    assert counted, found
    if connection.vendor == "sqlite":
        by_hour = "USING INDEX matches_by_player_a_made (player_a_id=? AND created>?)"
        assert any(by_hour in line for line in counted[0]), counted
    else:
        assert any("Index Cond" in line and "created" in line for line in counted[0]), counted
