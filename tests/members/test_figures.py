"""Per-match figures written when a match ends, from its stored events; the backfill command."""

from __future__ import annotations

import json
import logging

import pytest
from django.core.management import call_command

from game import service
from game.models import Match, MatchEvent
from game.protocol import client_in
from members import figures as member_figures
from members.models import HighBreak, MatchFigures, Member
from rules import stats
from tests.members.helpers import store
from tests.rules.stats_golden import golden

pytestmark = pytest.mark.django_db


def row_of(match: Match, username: str) -> MatchFigures:
    return MatchFigures.objects.get(match=match, player__username=username)


def test_the_figures_from_the_stored_events_are_the_rules_own(players) -> None:
    """The events as broadcast give the same statistics as the fold of `apply`."""
    for name in ("stats_century", "stats_misses"):
        match = store(name, players[0], players[1])
        start, played = golden(name)
        _, acts = stats.played(start, played)
        assert member_figures.finished(match).figures == stats.figures(acts)


def test_written_once_when_the_match_ends(players) -> None:
    alice, bob, _ = players
    match = store("stats_century", alice, bob)
    assert match.status == Match.Status.FINISHED
    b, a = row_of(match, "bob"), row_of(match, "alice")
    assert (b.seat, b.opponent, b.won, b.frames_won, b.frames_lost) == ("B", alice, True, 2, 0)
    assert (a.seat, a.opponent, a.won, a.frames_won, a.frames_lost) == ("A", bob, False, 0, 2)
    assert (b.highest_break, b.centuries, b.fifties, b.breaks, b.break_points) == (
        120, 1, 2, 3, 196,
    )  # fmt: skip
    assert (a.highest_break, a.centuries, a.fifties, a.breaks, a.break_points) == (
        50, 0, 1, 1, 50,
    )  # fmt: skip
    assert (b.pots, b.attempts, b.fouls, b.foul_points) == (56, 56, 1, 5)
    assert (a.pots, a.attempts, a.fouls, a.foul_points) == (16, 16, 1, 4)
    assert (b.won_on_black, b.termination, b.best_of) == (0, "frames", 3)
    last = MatchEvent.objects.filter(match=match).latest("version")
    assert b.finished == last.created
    breaks = HighBreak.objects.filter(match=match).order_by("frame", "points")
    assert [(h.player.username, h.frame, h.points) for h in breaks] == [
        ("bob", 1, 120),
        ("alice", 2, 50),
        ("bob", 2, 69),
    ]


def test_a_match_conceded_through_the_service(players) -> None:
    alice, bob, _ = players
    match = service.create_match(alice, bob, 3, draw="A")
    service.submit(match.pk, bob, client_in.Concede(type="concede", client_id="c1", scope="frame"))
    assert not MatchFigures.objects.exists()  # the match goes on
    service.submit(match.pk, bob, client_in.Concede(type="concede", client_id="c2", scope="match"))
    a, b = row_of(match, "alice"), row_of(match, "bob")
    assert (a.won, a.frames_won, a.frames_lost, a.termination) == (True, 2, 0, "conceded")
    assert (b.won, b.frames_won, b.frames_lost) == (False, 0, 2)
    assert (a.highest_break, a.pots, a.attempts, a.fouls) == (0, 0, 0, 0)


def test_a_failure_never_stops_the_match_ending(players, monkeypatch, caplog) -> None:
    alice, bob, _ = players
    match = service.create_match(alice, bob, 1, draw="A")

    def broken(row: Match) -> None:
        MatchFigures.objects.create(
            match=row, player=alice, opponent=bob, seat="A", finished=row.created, best_of=1,
            won=True, frames_won=1, frames_lost=0, highest_break=0, centuries=0, fifties=0,
            breaks=0, break_points=0, pots=0, attempts=0, fouls=0, foul_points=0,
            won_on_black=0,
        )  # fmt: skip
        raise RuntimeError("a bug in the figures")

    monkeypatch.setattr(member_figures, "record", broken)
    with caplog.at_level(logging.ERROR, logger="members.figures"):
        service.submit(
            match.pk, bob, client_in.Concede(type="concede", client_id="c", scope="match")
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.version == 2
    assert not MatchFigures.objects.exists()  # the half-written figures were rolled back
    assert "figures not written" in caplog.text

    monkeypatch.undo()
    call_command("record_figures")
    assert row_of(match, "alice").won


def test_the_backfill_writes_what_is_missing(players, capsys) -> None:
    alice, bob, carol = players
    done = store("stats_misses", alice, bob)
    other = service.create_match(bob, carol, 1, draw="B")
    service.submit(other.pk, carol, client_in.Concede(type="concede", client_id="x", scope="match"))
    live = service.create_match(alice, carol, 3, draw="A")
    MatchFigures.objects.filter(match=done).delete()
    Member.objects.filter(user=carol).delete()

    call_command("record_figures")
    assert "1 match recorded, 0 failed; 1 member name added" in capsys.readouterr().out
    assert MatchFigures.objects.filter(match=done).count() == 2
    assert not MatchFigures.objects.filter(match=live).exists()
    assert Member.objects.get(user=carol).folded == "алиса"
    assert (row_of(done, "alice").won, row_of(done, "alice").frames_won) == (True, 1)

    call_command("record_figures")  # nothing missing: nothing done
    assert "0 matches recorded" in capsys.readouterr().out
    call_command("record_figures", "--all")  # every finished match again, once each
    assert "2 matches recorded" in capsys.readouterr().out
    assert MatchFigures.objects.count() == 4
    call_command("record_figures", "--match", str(other.pk))
    assert "1 match recorded" in capsys.readouterr().out


def test_old_events_are_read_through_their_commands(players) -> None:
    """Events stored before the protocol settled do not parse as today's: the figures come
    from folding the stored commands through the rules core instead."""
    alice, bob, _ = players
    match = store("stats_misses", alice, bob)
    MatchEvent.objects.filter(match=match, version=1).update(
        payload=json.dumps({"seat": None, "request": {"draw": "A"}})
    )
    MatchFigures.objects.all().delete()
    call_command("record_figures")
    assert (row_of(match, "alice").pots, row_of(match, "alice").attempts) == (3, 4)
    assert row_of(match, "alice").highest_break == 5
    assert row_of(match, "bob").foul_points == 15


def test_members_follow_the_users(players) -> None:
    alice, _, alisa = players
    assert Member.objects.get(user=alisa).folded == "алиса"
    alice.username = "ALICE_Smith"
    alice.save()
    assert Member.objects.get(user=alice).folded == "alice_smith"
    alice.save(update_fields=["last_login"])  # logging in: nothing to do


def test_a_practice_table_ends_without_figures_and_without_an_error(players, caplog) -> None:
    """One member plays both sides: no figures by design (nobody's wins or breaks against
    anybody), and neither the end of the table nor the backfill trips over it."""
    alice, bob, _ = players
    table = service.create_match(alice, alice, 1, draw="A", practice=True)
    with caplog.at_level(logging.ERROR, logger="members.figures"):
        service.submit(
            table.pk, alice, client_in.Concede(type="concede", client_id="p", scope="match")
        )
    table.refresh_from_db()
    assert table.status == Match.Status.FINISHED
    assert not MatchFigures.objects.filter(match=table).exists()
    assert "figures not written" not in caplog.text
    other = service.create_match(alice, bob, 1, draw="A")
    service.submit(other.pk, bob, client_in.Concede(type="concede", client_id="q", scope="match"))
    MatchFigures.objects.all().delete()
    call_command("record_figures")
    assert MatchFigures.objects.filter(match=other).count() == 2
    call_command("record_figures", "--all")
    call_command("record_figures", "--match", str(table.pk))
    assert not MatchFigures.objects.filter(match=table).exists()
