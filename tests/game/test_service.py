"""The service's guarantees: one write per version, one event per request, nothing on refusal."""

from __future__ import annotations

import math
import threading

import pytest
from django.db import connection

from game import service
from game.models import Match, MatchEvent
from game.protocol import client_in
from rules.commands import Concede
from rules.match import apply, match_from_json
from tests.game.helpers import BREAK_AT, BREAK_CUE

pytestmark = pytest.mark.django_db(transaction=True)


def _break(client_id: str, version: int = 1) -> client_in.Stroke:
    angle = math.atan2(BREAK_AT[1] - BREAK_CUE[1], BREAK_AT[0] - BREAK_CUE[0])
    return client_in.Stroke(
        type="stroke", client_id=client_id, version=version, angle=angle, speed=8.0,
        cue_ball=BREAK_CUE,
    )  # fmt: skip


def test_a_write_computed_from_an_old_version_is_a_conflict(match, players) -> None:
    stale = Match.objects.get(pk=match.pk)
    service.submit(match.pk, players[0], _break("first"))
    state, outcome = apply(match_from_json(stale.state), "A", Concede("frame"))
    with pytest.raises(service.ServiceError) as err:
        service._store(stale, "A", Concede("frame"), state, outcome)
    assert err.value.code == "conflict"
    assert Match.objects.get(pk=match.pk).version == 2
    assert MatchEvent.objects.filter(match=match).count() == 2


def test_the_same_request_is_applied_once(match, players) -> None:
    first = service.submit(match.pk, players[0], _break("same"))
    again = service.submit(match.pk, players[0], _break("same"))
    assert not first.duplicate and again.duplicate
    assert again.version == first.version == 2
    assert again.events[0].text == first.events[0].text
    assert MatchEvent.objects.filter(match=match, kind="stroke").count() == 1


def test_a_repeat_is_answered_once_the_match_moved_on(match, players) -> None:
    """A repeat arriving after other requests (its answer was lost) gets its own event back,
    not a refusal as stale, and nothing is applied again."""
    first = service.submit(match.pk, players[0], _break("lost-answer"))
    conceded = service.submit(match.pk, players[1], client_in.Concede(
        type="concede", client_id="later", scope="frame"))  # fmt: skip
    again = service.submit(match.pk, players[0], _break("lost-answer"))
    assert again.duplicate and again.version == first.version
    assert again.events[0].text == first.events[0].text
    assert Match.objects.get(pk=match.pk).version == conceded.version


def test_a_repeated_concession_concedes_once(match, players) -> None:
    """A concession is allowed again in the next frame: its client id, not a refusal, tells
    that it is a repeat."""
    concede = client_in.Concede(type="concede", client_id="give-up", scope="frame")
    first = service.submit(match.pk, players[0], concede)
    again = service.submit(match.pk, players[0], concede)
    assert not first.duplicate and again.duplicate and again.version == first.version
    assert MatchEvent.objects.filter(match=match, kind="concede").count() == 1


def test_racing_strokes_apply_once(match, players) -> None:
    """Two requests for the same turn at once (two tabs, two processes): one stroke is played."""
    results: list[object] = []

    def play(client_id: str) -> None:
        try:
            results.append(service.submit(match.pk, players[0], _break(client_id)))
        except service.ServiceError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(f"tab{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    applied = [r for r in results if isinstance(r, service.Applied)]
    assert len(applied) == 1, results
    refused = [r for r in results if r not in applied]
    assert set(refused) <= {"stale_version", "not_your_turn", "conflict", "busy"}, refused
    assert MatchEvent.objects.filter(match=match, kind="stroke").count() == 1


def test_refusals_write_nothing(match, players) -> None:
    bad = [
        (players[1], _break("b")),  # out of turn
        (players[0], _break("c", version=7)),  # stale
        (players[0], client_in.Choose(type="choose", client_id="d", version=1, option="play")),
    ]
    for user, message in bad:
        with pytest.raises(service.ServiceError):
            service.submit(match.pk, user, message)
    assert MatchEvent.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 1


def test_a_stroke_is_told_once_stored_and_never_if_rolled_back(match, players, monkeypatch) -> None:
    """The service announces what it stored once its transaction commits (no caller has to
    remember to), and what a rolled-back transaction stored never."""
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer
    from django.db import transaction

    layer = get_channel_layer()
    assert layer is not None
    sent = []

    async def group_send(group: str, message: dict[str, object]) -> None:
        # Sent from the thread that stored it: is its transaction still open?
        open_ = await database_sync_to_async(lambda: transaction.get_connection().in_atomic_block)()
        sent.append((group, message["type"], message["version"], open_))

    monkeypatch.setattr(layer, "group_send", group_send)
    with pytest.raises(RuntimeError), transaction.atomic():
        service.submit(match.pk, players[0], _break("rolled-back"))
        raise RuntimeError("after the stroke, before the commit")
    assert sent == [] and Match.objects.get(pk=match.pk).version == 1
    service.submit(match.pk, players[0], _break("kept"))
    assert sent == [(f"match-{match.pk}", "match.event", 2, False)]


def test_a_stroke_is_one_read_and_one_write(match, players) -> None:
    """The players' busiest request costs the fewest round trips (game/writes.py): on
    PostgreSQL the row's read and one statement that moves it on and stores the event."""
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        service.submit(match.pk, players[0], _break("counted"))
    # SQLite's driver shows its transaction's BEGIN and COMMIT as statements; psycopg's not.
    statements = [q["sql"].split(None, 1)[0] for q in queries.captured_queries]
    statements = [s for s in statements if s not in ("BEGIN", "COMMIT")]
    postgresql = connection.vendor == "postgresql"
    assert statements == (["SELECT", "WITH"] if postgresql else ["SELECT", "UPDATE", "INSERT"])
    row = Match.objects.get(pk=match.pk)
    event = MatchEvent.objects.get(match=match, version=2)
    assert (row.version, event.kind, event.client_id, event.actor_id) == (
        2, "stroke", "counted", players[0].pk)  # fmt: skip
    assert event.created is not None and event.frame == 1 and event.seat == "A"
    assert service.rebuild(match.pk) == match_from_json(row.state)


def test_an_ending_between_the_read_and_the_write_is_kept(match, players, monkeypatch) -> None:
    """A stroke is computed from the row unlocked; if the match ended meanwhile without a
    version (a ladder's default abandons it, ladder/service.py), the stroke is taken again
    under the lock and refused: nothing is written over the ending."""
    applied: list[int] = []
    real = service.rules_match.apply

    def apply_while_the_match_ends(*args):  # type: ignore[no-untyped-def]
        if not applied:  # the first computation: the match ends before its write
            Match.objects.filter(pk=match.pk).update(status=Match.Status.ABANDONED)
        applied.append(1)
        return real(*args)

    monkeypatch.setattr(service.rules_match, "apply", apply_while_the_match_ends)
    with pytest.raises(service.ServiceError) as refused:
        service.submit(match.pk, players[0], _break("racing-ending"))
    # The match had started (both at the table): abandoned then is deserted.
    assert refused.value.code == "deserted" and applied == [1]
    row = Match.objects.get(pk=match.pk)
    assert row.version == 1 and row.status == Match.Status.ABANDONED
    assert not MatchEvent.objects.filter(match=match, kind="stroke").exists()


@pytest.mark.parametrize(
    ("start", "code"), [((71, 0), "bad_start"), ((0, 71), "bad_start"), ((3, 3), "bad_start")]
)
def test_a_start_above_the_cap_or_for_both_is_refused(players, start, code) -> None:  # type: ignore[no-untyped-def]
    """RULES.md §10: one player's start, at most the club's cap (SNOOKER_HANDICAP_CAP, 70)."""
    with pytest.raises(service.ServiceError) as refused:
        service.create_match(players[0], players[1], best_of=3, draw="A", start=start)
    assert refused.value.code == code
    assert not Match.objects.exists()


def test_a_start_at_the_cap_is_made_and_rebuilt(players, settings) -> None:  # type: ignore[no-untyped-def]
    settings.CLUB = {**settings.CLUB, "HANDICAP_CAP": 40}
    with pytest.raises(service.ServiceError):
        service.create_match(players[0], players[1], best_of=3, draw="B", start=(41, 0))
    row = service.create_match(players[0], players[1], best_of=3, draw="B", start=(40, 0))
    state = match_from_json(row.state)
    assert state.start == (40, 0) and state.frame.scores == (40, 0)
    assert row.state["start"] == {"A": 40, "B": 0}
    assert service.rebuild(row.pk) == state
    _, snap = service.snapshot(row.pk)
    assert (snap.scoreboard.start.A, snap.scoreboard.start.B) == (40, 0)


def test_a_match_made_before_starts_rebuilds_without_one(match) -> None:  # type: ignore[no-untyped-def]
    MatchEvent.objects.filter(match=match, version=1).update(command={"draw": "A"})
    assert service.rebuild(match.pk).start == (0, 0)
