"""What a server process keeps in memory per match, per socket and per address is forgotten
when its sockets go or its time is over (issue 42, "nothing that grows without bound"): a
process that serves match after match for months holds what its live sockets need, not
something of every match it ever served."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game import service
from game.aims import AIMS
from game.broadcast import LATEST
from game.chatheld import HELD
from game.fanout import FANOUT
from game.gates import GATE, _Gate
from game.greetings import TABLES
from game.heartbeats import HEARTBEATS
from game.shotclocks import CLOCKS
from tests.game.helpers import Client, started

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


def _sizes() -> dict[str, int]:
    """Every per-match, per-socket and per-address structure of the process, by its size."""
    beats = HEARTBEATS
    return {
        "relays": len(FANOUT.relays),
        "held chat rooms": len(HELD.rooms),
        "tables": len(TABLES.tables),
        "latest": len(LATEST),
        "beat channels": len(beats.channels),
        "beat spectators": len(beats.spectators),
        "beat seats": len(beats.seats),
        "presence told": len(beats.presence),
        "counted": len(beats.counted),
        "held goings": len(beats.held),
        "dirty": len(beats.dirty),
        "clocks": len(CLOCKS.timers),
        "gate addresses": len(GATE.addresses),
        "gate matches": len(GATE.matches),
        "gate members": len(GATE.members_held),
        "gate members at": len(GATE.members_at),
        "gate seats": len(GATE.seats),
        "aims": len(AIMS.last),
    }


async def test_sockets_opened_and_closed_leave_the_process_as_it_was(
    players: Any, settings: Any, set_clock: Any
) -> None:
    """Players and spectators at N matches come (greeted, chat read, presence told) and go:
    every structure is back to its size, whatever N. Before, each match left its spectators'
    chat rooms (`HELD`) and the presence last told of it (`HEARTBEATS.presence`) behind."""
    settings.SNOOKER = {**settings.SNOOKER, "PRESENCE_COALESCE": 0.1, "AWAY_NOTICE": 1.0}
    alice, bob = players
    before = _sizes()
    n = 6

    def made() -> list[Any]:
        return [started(service.create_match(alice, bob, 1, draw="A")) for _ in range(n)]

    rows = await database_sync_to_async(made)()
    clients = []
    for i, row in enumerate(rows):
        clients.append(Client(row.pk, alice, address=f"10.9.0.{i}"))
        clients.append(Client(row.pk, bob, address=f"10.9.1.{i}"))
        clients.append(Client(row.pk, address=f"10.9.2.{i}"))  # a spectator: chat held
    for client in clients:
        await client.open()
    await set_clock.advance(0.1)  # the coalesced presence, told
    during = _sizes()
    assert during["held chat rooms"] == n and during["presence told"] == n, during
    # Each consumer's clean-up done (its row deleted) before the next step; closed here, not
    # again by the fixture.
    await asyncio.gather(*(client.ws.disconnect(timeout=10) for client in clients))
    Client.made.clear()
    for _ in range(4):  # the goings told (after AWAY_NOTICE), the next beats
        await set_clock.advance(settings.SNOOKER["HEARTBEAT"] / 2)
    assert _sizes() == before


def test_an_address_whose_wait_is_over_is_forgotten_though_it_never_comes_back(
    settings: Any, set_clock: Any
) -> None:
    """A flood's wait is kept until it is over, then swept with the other addresses' state;
    before, an address that never came back stayed turned away in memory for ever (a botnet's
    thousand addresses, a thousand entries a round)."""
    settings.SNOOKER = {**settings.SNOOKER, "FLOOD_PENALTY": 120, "FLOOD_PENALTY_MAX": 600}
    gate = _Gate()
    for i in range(100):
        gate.penalise(f"10.9.3.{i}")
    gate.penalise("10.9.3.200")
    set_clock.move(100)  # their waits (120 s or so) are not over
    assert len(gate.penalised) == 101
    gate.penalise("10.9.3.201")  # waits until 100 + 120 s or so (a fifth more or less)
    set_clock.move(50)
    gate.member_from("10.9.4.1")  # any knock, a member's too, sweeps past the minute
    assert set(gate.penalised) == {"10.9.3.201"}  # the others' waits are over; its is not
    set_clock.move(100)
    gate.knock("10.9.5.1")
    assert gate.penalised == {}
