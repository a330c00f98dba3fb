"""A match starts when both players are at the table together (issue 19): until then no shot
clock runs and nobody can claim; after it, a claim needs the claimant at the table and the
opponent away for the whole grace. The service on an injected clock, then over sockets."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game import presence, service
from game.models import Connection, Match
from game.protocol import client_in
from rules.presence import Refusal
from tests.game.helpers import Client


def _at(t0: datetime, seconds: float) -> datetime:
    return t0 + timedelta(seconds=seconds)


def _row(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def _beat(channel_name: str, at: datetime) -> None:
    """The socket's process refreshed its row at `at` (its heartbeat, on the test's clock)."""
    Connection.objects.filter(channel_name=channel_name).update(last_seen=at)


@pytest.mark.django_db
def test_a_glance_at_the_table_starts_nothing_and_cannot_be_claimed(players) -> None:
    """The attack: the accepter glances at the table and leaves; the challenger comes a
    minute later and claims at once. The two were never there together: no start, no claim,
    and the page is told no claim is coming (claim_from null)."""
    m = service.create_match(players[0], players[1], 3, draw="A", shot_clock=30)
    t0 = timezone.now()
    presence.connect(m.pk, "bob-1", "B", now=t0)
    presence.disconnect(m.pk, "bob-1", "B", now=_at(t0, 5))
    assert presence.connect(m.pk, "alice-1", "A", now=_at(t0, 65)) is None  # no clock
    row = _row(m)
    assert row.started is None and row.deadline is None
    assert row.arrived_a is not None and row.arrived_b is not None
    for later in (70, 600):
        assert presence.why_not_claim(row, "A", _at(t0, later)) is Refusal.NOT_STARTED
    seats = presence.presence(m.pk, _at(t0, 600)).players
    assert seats["B"].away_since is not None and seats["B"].claim_from is None
    assert presence.presence(m.pk, _at(t0, 70)).started is None


@pytest.mark.django_db
def test_the_match_starts_when_both_are_connected_at_once(players) -> None:
    m = service.create_match(players[0], players[1], 3, draw="A", shot_clock=30)
    t0 = timezone.now()
    assert presence.connect(m.pk, "alice-1", "A", now=t0) is None
    _beat("alice-1", _at(t0, 35))
    started = presence.connect(m.pk, "bob-1", "B", now=_at(t0, 40))
    row = _row(m)
    assert row.started == _at(t0, 40)
    assert started is not None and started.deadline == row.deadline == _at(t0, 70)
    assert presence.presence(m.pk, _at(t0, 41)).started == _at(t0, 40)
    # Coming and going again starts nothing again.
    presence.disconnect(m.pk, "bob-1", "B", now=_at(t0, 50))
    assert presence.connect(m.pk, "bob-2", "B", now=_at(t0, 60)) is None
    assert _row(m).started == _at(t0, 40)


@pytest.mark.django_db
def test_a_claim_needs_the_claimant_here_and_the_opponent_away_for_the_whole_grace(
    players,
) -> None:
    m = service.create_match(players[0], players[1], 3, draw="A", reconnect_grace=60)
    t0 = timezone.now()
    presence.connect(m.pk, "alice-1", "A", now=t0)
    presence.connect(m.pk, "bob-1", "B", now=_at(t0, 1))
    row = _row(m)
    assert presence.why_not_claim(row, "A", _at(t0, 2)) is Refusal.OPPONENT_HERE
    presence.disconnect(m.pk, "bob-1", "B", now=_at(t0, 10))
    _beat("alice-1", _at(t0, 60))
    assert presence.why_not_claim(row, "A", _at(t0, 69)) is Refusal.GRACE
    assert presence.presence(m.pk, _at(t0, 11)).players["B"].claim_from == _at(t0, 70)
    # Bob comes back for a moment: his absence starts again when he goes again.
    presence.connect(m.pk, "bob-2", "B", now=_at(t0, 50))
    presence.disconnect(m.pk, "bob-2", "B", now=_at(t0, 55))
    assert presence.why_not_claim(row, "A", _at(t0, 70)) is Refusal.GRACE
    _beat("alice-1", _at(t0, 110))
    assert presence.why_not_claim(row, "A", _at(t0, 115)) is None
    # Her process died (no heartbeat for longer than the stale limit): she is not here.
    assert presence.why_not_claim(row, "A", _at(t0, 130)) is Refusal.CLAIMANT_AWAY
    # Alice goes too: a player who is away claims nothing, and nobody is told of a claim.
    presence.disconnect(m.pk, "alice-1", "A", now=_at(t0, 116))
    assert presence.why_not_claim(row, "A", _at(t0, 117)) is Refusal.CLAIMANT_AWAY
    assert presence.presence(m.pk, _at(t0, 117)).players["B"].claim_from is None


@pytest.mark.django_db
def test_a_claim_request_before_the_start_is_refused(players) -> None:
    m = service.create_match(players[0], players[1], 3, draw="A", reconnect_grace=0)
    presence.connect(m.pk, "bob-1", "B")
    presence.disconnect(m.pk, "bob-1", "B")
    presence.connect(m.pk, "alice-1", "A")
    claim = client_in.Claim(type="claim", client_id="c1", scope="match")
    with pytest.raises(service.ServiceError) as refused:
        service.submit(m.pk, players[0], claim)
    assert refused.value.code == "not_claimable"
    assert "not started" in refused.value.message
    # Bob comes while she is there, and goes: now (grace 0) she may claim.
    presence.connect(m.pk, "bob-2", "B")
    presence.disconnect(m.pk, "bob-2", "B")
    applied = service.submit(m.pk, players[0], claim)
    assert _row(m).status == Match.Status.FINISHED and applied.version == 2


@pytest.mark.django_db
def test_a_practice_table_starts_at_once_and_its_clock_when_the_member_comes(players) -> None:
    alice = players[0]
    m = service.create_match(alice, alice, 1, draw="A", practice=True, shot_clock=30)
    assert m.started is not None and m.deadline is None
    t0 = timezone.now()
    started = presence.connect(m.pk, "alice-1", "A", now=t0)
    assert started is not None and started.deadline == _at(t0, 30)
    assert presence.why_not_claim(_row(m), "A", _at(t0, 1)) is Refusal.OPPONENT_HERE


# --- over the sockets -------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_clients")
async def test_the_one_who_came_waits_and_the_start_is_told(players) -> None:
    m = await database_sync_to_async(service.create_match)(
        players[0], players[1], 3, draw="A", reconnect_grace=0
    )
    alice = Client(m.pk, players[0])
    await alice.open()
    presence = await alice.expect("presence")
    assert presence["started"] is None and presence["abandoned"] is False
    await alice.send({"type": "claim", "client_id": "too-soon", "scope": "match"})
    assert (await alice.expect("error"))["code"] == "not_claimable"
    bob = Client(m.pk, players[1])
    await bob.open()
    while presence["started"] is None:
        presence = await alice.expect("presence")
    assert presence["players"]["B"]["online"]
    row = await database_sync_to_async(Match.objects.get)(pk=m.pk)
    assert row.started is not None
    assert presence["started"].startswith(row.started.isoformat()[:19])
