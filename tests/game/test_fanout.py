"""A match's broadcasts reach a process once, however many of its sockets watch
(game/fanout.py), in one process on the in-memory layer; and a relay on Redis ends when
cancelled."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections import Counter
from typing import Any

import pytest
from channels.layers import channel_layers, get_channel_layer

from game import fanout, service
from game.consumers import MatchConsumer
from game.fanout import FANOUT, _Relay
from game.greetings import TABLES
from game.protocol.ipc import group_name
from snooker_site.layers import redis_layer
from tests.game.helpers import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_clients")]


@pytest.fixture(autouse=True)
def one_process(settings) -> None:  # type: ignore[no-untyped-def]
    """The in-memory layer, whatever REDIS_URL says: what one process's layer hands over is
    counted here (tests/live runs the relays of two processes on Redis)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()


def _spy(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """Every message any channel of this process takes from the layer: (channel, type)."""
    layer = get_channel_layer()
    assert layer is not None
    taken: Counter[tuple[str, str]] = Counter()
    receive = layer.receive

    async def counted(channel: str) -> Any:
        message = await receive(channel)
        taken[channel, message["type"]] += 1
        return message

    monkeypatch.setattr(layer, "receive", counted)
    return taken


@pytest.mark.parametrize("watching", [1, 8])
async def test_one_layer_message_per_event_per_process(
    match, players, monkeypatch, watching
) -> None:
    taken = _spy(monkeypatch)  # before any socket binds the layer's receive
    a, b = Client(match.pk, players[0]), Client(match.pk, players[1])
    crowd = [Client(match.pk) for _ in range(watching)]
    for c in (a, b, *crowd):
        await c.open()
    layer = get_channel_layer()
    assert len(layer.groups[group_name(match.pk)]) == 1  # type: ignore[union-attr]

    await a.break_off()
    for c in (a, b, *crowd):
        assert (await c.expect("event"))["version"] == 2
    await b.send({"type": "aim", "angle": 1.0, "speed": 2.0})
    for c in (a, *crowd):
        assert (await c.expect("aim"))["seat"] == "B"

    # One channel took every match message, once each: one per event, not one per socket.
    relay = FANOUT.relays[match.pk]
    matches = {(ch, kind): n for (ch, kind), n in taken.items() if kind.startswith("match.")}
    assert {ch for ch, _ in matches} == {relay.channel}
    assert matches[relay.channel, "match.event"] == 1
    assert matches[relay.channel, "match.aim"] == 1

    for c in (a, b, *crowd):
        await c.close()
    await asyncio.wait_for(relay.task, 2)  # the last socket out ends the relay...
    assert not layer.groups.get(group_name(match.pk))  # type: ignore[union-attr]  # ...and its place
    assert match.pk not in FANOUT.relays


async def test_a_socket_catching_up_delays_nobody(match, players, monkeypatch) -> None:
    a, b = Client(match.pk, players[0]), Client(match.pk, players[1])
    behind, watcher = Client(match.pk), Client(match.pk)
    for c in (a, b, behind, watcher):  # `behind` first in the relay's round
        await c.open()
    # `behind` missed the last event, and this process did not keep it: its catch-up reads
    # the database, and that read is held until the others have their event.
    lagging = next(iter(FANOUT.relays[match.pk].spectators))
    lagging.sent_version -= 1  # type: ignore[attr-defined]
    behind.version -= 1
    TABLES.forget(match.pk)
    reading, release = threading.Event(), threading.Event()
    events_after = service.events_after

    def held(*args: Any) -> Any:
        reading.set()
        assert release.wait(5)
        return events_after(*args)

    monkeypatch.setattr(service, "events_after", held)
    try:
        await a.break_off()
        for c in (a, b, watcher):
            assert (await c.expect("event"))["version"] == 2
        assert await asyncio.to_thread(reading.wait, 5)
        waiting = [m.get("text", "") for m in behind.ws.output_queue._queue]  # type: ignore[attr-defined]
        assert not any('"type":"event"' in text for text in waiting)  # still reading
    finally:
        release.set()
    assert (await behind.expect("event"))["version"] == 1  # what it missed, then the new one
    assert (await behind.expect("event"))["version"] == 2


async def test_the_players_hear_an_event_before_the_crowd(match, players, monkeypatch) -> None:
    crowd = [Client(match.pk) for _ in range(3)]
    for c in crowd:  # the crowd came first
        await c.open()
    a, b = Client(match.pk, players[0]), Client(match.pk, players[1])
    for c in (a, b):
        await c.open()
    # Each page greeted whole: a socket still reading its chat history (after its welcome) takes
    # the next event only once it has sent it.
    for c in (*crowd, a, b):
        await c.expect("lines")
    heard: list[str | None] = []
    match_event = MatchConsumer.match_event

    async def recorded(self: MatchConsumer, event: Any) -> None:
        if event["version"] == 2 and self.sent_version < 2:  # its first hearing of it
            heard.append(self.seat)
        await match_event(self, event)

    monkeypatch.setattr(MatchConsumer, "match_event", recorded)
    await a.break_off()
    for c in (a, b, *crowd):
        assert (await c.expect("event"))["version"] == 2
    # The opponent before the crowd. The striker's socket is busy with its request when the
    # relay hands the event out (the service broadcast it on commit): it sends its own straight
    # after its ack, and the relay's copy, queued meanwhile, then finds it sent.
    assert sorted(heard, key=str) == ["A", "B", None, None, None]
    assert heard.index("B") < heard.index(None)
    kinds = [m["type"] for m in a.seen if m["type"] in ("ack", "event")]
    assert kinds[-2:] == ["ack", "event"]


# It yields at the first socket past the slice: every 3 sockets (0.6 ms), or every 21 (the
# set clock's sum of twenty 0.2 ms steps falls a hair short of 4 ms).
@pytest.mark.parametrize(("waiting", "turns"), [(True, 200 // 3), (False, 200 // 21)])
async def test_a_crowds_event_yields_the_loop_often_while_a_player_waits(
    monkeypatch, waiting, turns
) -> None:
    """200 sockets that take 0.2 ms each (on a set clock): the relay lets the loop run every
    0.5 ms while a player's request is being answered (each turn of the loop it needs waits
    for the slice under way), else every 4 ms (each turn serves whatever else waits)."""
    now = [0.0]

    class Slow:
        seated = False

        def __init__(self) -> None:
            self.inbox = self

        async def offer(self, message: Any) -> None:
            now[0] += 0.0002

    monkeypatch.setattr(fanout, "time", type("SetClock", (), {"monotonic": lambda: now[0]}))
    monkeypatch.setattr(fanout, "players_waiting", lambda: waiting)
    relay = object.__new__(_Relay)
    relay.players, relay.spectators = {}, {Slow(): None for _ in range(200)}  # type: ignore[dict-item]
    given = 0
    handing = asyncio.create_task(relay._hand_out({"type": "match.event"}))
    while not handing.done():
        given += 1  # a turn of the loop for anyone else
        await asyncio.sleep(0)
    assert given - 1 == turns


async def test_a_relay_cancelled_at_any_moment_ends_on_redis(settings, redis_url) -> None:
    """A relay is cancelled once when its server's (or a test's) event loop ends. On Redis it
    ends whenever that comes: with a socket timeout, redis-py wrote each command through
    `asyncio.wait_for`, which on Python 3.11 swallowed a cancellation arriving as the write
    completed, and the relay went on popping for ever (snooker_site/layers.py)."""
    settings.CHANNEL_LAYERS = {"default": redis_layer(redis_url, f"test-{uuid.uuid4().hex}")}
    channel_layers.backends.clear()
    stuck = []
    for moment in range(60):  # loop turns after its start: joining, then its first pops
        relay = _Relay(1)
        for _ in range(moment):
            await asyncio.sleep(0)
        relay.task.cancel()
        _, pending = await asyncio.wait([relay.task], timeout=2)
        if pending:
            stuck.append(moment)
            relay.task.cancel()  # a second cancellation gets through
            await asyncio.wait([relay.task], timeout=2)
    layer = get_channel_layer()
    await layer.flush()  # type: ignore[union-attr]
    assert stuck == []


class Taker:
    """A socket of a relay that writes down what it is offered."""

    seated = False

    def __init__(self, seen: list[tuple[int, str]], n: int) -> None:
        self.inbox = self
        self.seen, self.n = seen, n
        self.on_offer: Any = None

    async def offer(self, message: Any) -> None:
        self.seen.append((self.n, message["text"]))
        if self.on_offer is not None:
            self.on_offer(message)


def _relay_of(sockets: list[Taker]) -> _Relay:
    relay = object.__new__(_Relay)
    relay.players, relay.spectators = {}, {s: None for s in sockets}  # type: ignore[dict-item]
    relay.play, relay.chat = fanout.deque(), fanout.deque()
    relay.came = asyncio.Event()
    return relay


def line(text: str) -> dict[str, Any]:
    return {"type": "match.line", "text": text}


def event(text: str) -> dict[str, Any]:
    return {"type": "match.event", "text": text}


async def test_a_relay_hands_out_the_plays_events_before_the_chats_lines_waiting() -> None:
    """Lines that came first wait behind an event that came after them (each stream in its
    own order); an event that comes while a line is being handed out goes to every socket
    before the rest of the line's."""
    seen: list[tuple[int, str]] = []
    sockets = [Taker(seen, n) for n in range(4)]
    relay = _relay_of(sockets)
    relay.chat.extend([line("L1"), line("L2")])
    relay.play.extend([event("E1")])
    relay.came.set()
    handing = asyncio.create_task(relay._hand_out_all())
    for _ in range(20):
        await asyncio.sleep(0)
    texts = [t for n, t in seen if n == 0]
    assert texts == ["E1", "L1", "L2"]
    assert all([t for n, t in seen if n == i] == texts for i in range(4))
    # An event comes as the line reaches socket 1: sockets 2 and 3 have it before the line.
    seen.clear()
    sockets[1].on_offer = lambda m: m["text"] == "L3" and relay.play.append(event("E2"))
    relay.chat.append(line("L3"))
    relay.came.set()
    for _ in range(20):
        await asyncio.sleep(0)
    handing.cancel()
    assert seen == [(0, "L3"), (1, "L3"), (0, "E2"), (1, "E2"), (2, "E2"), (3, "E2"),
                    (2, "L3"), (3, "L3")]  # fmt: skip


async def test_a_busy_sockets_inbox_sends_the_event_before_the_lines_queued() -> None:
    """A socket busy with its own handler queues what the relay offers: then the play's
    events go before the chat's lines queued earlier, each in its own order."""
    sent: list[str] = []

    async def handle(message: Any) -> None:
        sent.append(message["text"])

    inbox = fanout.Inbox(handle, lambda m: True)
    async with inbox.lock:  # the socket's own handler (a `say` waiting on the database)
        for message in (line("L1"), line("L2"), event("E1"), line("L3"), event("E2")):
            await inbox.offer(message)
        assert sent == []
    assert inbox.draining is not None
    await inbox.draining
    assert sent == ["E1", "E2", "L1", "L2", "L3"]
