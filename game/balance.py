"""Sockets spread over the processes again after a rolling restart (issue 37).

nginx's `least_conn` (deploy/nginx/snooker.conf) places each new socket on the process holding
fewest, but a websocket stays where it landed: a rolling restart moves every socket of the
process restarted first onto the other, then every socket of the second onto the first, which
holds them all from then on. So every process says, every `SNOOKER_BALANCE_EVERY` seconds, how
many match sockets it holds (a Redis key of its own that expires unless said again, so a dead
process drops out), reads what the others said, and when it holds far more than its share asks
the excess to reconnect (close code `CLOSE_MOVED`): their pages come back at once through the
proxy, which hands them to the processes holding fewest, with `hello{last_version}` and miss
nothing. Spectators are asked first; a player only when there are not spectators enough (a
reconnection is within the away notice: the opponent is not told, docs/protocol.md).

The crowd may have processes of its own (`SNOOKER_CROWD`: the proxy sends the spectators'
path, /ws/watch/, there; game/routing.py): each process balances with those of its own kind
only, and a players' process that holds spectators who came on the crowd's path (the crowd's
processes were all down when they came) asks them all to reconnect as soon as one of the
crowd's is back. A crowd's process runs below the players' priority (`CROWD_NICENESS`).

The lobby's and notices' sockets are not moved: they hold no table and are cheap to hold.
One process (the in-memory layer, no REDIS_URL) has nobody to share with.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import uuid
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol, TypeVar

import redis
from channels.layers import get_channel_layer
from django.conf import settings

from game import clock
from game.fanout import FANOUT
from game.protocol import CLOSE_MOVED
from game.supervise import Periodic

log = logging.getLogger(__name__)

# This process, for as long as it runs (a restart is another): not the channel layer's own
# name, of which a process may hold several (one per event loop).
PROCESS = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"

# Within this much over its share a process keeps its sockets (the proxy's placing of new ones
# evens out small differences), and never for fewer than `LEAST` over: moving sockets costs
# their pages a reconnection.
SLACK = 0.25
LEAST = 8
COOL_DOWN = 3  # periods after a move before the next
_LAST_MOVE = [-math.inf]  # when this process last asked sockets to move (monotonic)


def to_move(mine: int, others: Mapping[str, int]) -> int:
    """How many of its `mine` sockets a process asks to reconnect elsewhere, given what the
    other live processes hold: none unless it holds more than its share by `SLACK` and by
    `LEAST` sockets; then down to its share (rounded up)."""
    if not others:
        return 0
    share = (mine + sum(others.values())) / (len(others) + 1)
    if mine <= share * (1 + SLACK) or mine - share < LEAST:
        return 0
    return mine - math.ceil(share)


class Movable(Protocol):
    """A match socket, as the relay holds it (game/consumers.py's consumer)."""

    channel_name: str
    crowd: bool  # opened on the crowd's path

    async def close(self, code: Any = None, reason: Any = None) -> None: ...


M = TypeVar("M", bound=Movable)


def to_ask(held: list[M], others: Mapping[str, int], crowd_up: bool) -> list[M]:
    """Which of its sockets a process asks to reconnect: those that came on the crowd's path
    to a players' process while the crowd had none up (`crowd_up`: one is now), else its
    excess over its share among the processes of its kind (`to_move`), the first of `held`."""
    strays = [s for s in held if s.crowd] if crowd_up else []
    return strays or held[: to_move(len(held), others)]


def _held() -> list[Movable]:
    """This process's match sockets, spectators before players, each group newest first."""
    spectators: list[Movable] = []
    players: list[Movable] = []
    for relay in FANOUT.relays.values():
        spectators += relay.spectators  # type: ignore[arg-type]
        players += relay.players  # type: ignore[arg-type]
    return [*reversed(spectators), *reversed(players)]


@cache
def redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def _key(prefix: str, kind: str, process: str) -> str:
    return f"{prefix}balance:{kind}:{process}"


def _kind() -> str:
    return "crowd" if settings.SNOOKER["CROWD"] else "tables"


async def balance() -> int:
    """One pass: say how many sockets this process holds, and move its excess; how many it
    asked to reconnect."""
    url, every = settings.REDIS_URL, settings.SNOOKER["BALANCE_EVERY"]
    if not url:
        return 0
    # CHANNEL_LAYER_PREFIX, as the layer has it: runs sharing one Redis are kept apart.
    prefix = getattr(get_channel_layer(), "prefix", "")
    kind = _kind()
    mine = _key(prefix, kind, PROCESS)
    held = _held()
    client = redis_client(url)
    # Said for three passes: a process that stops saying drops out of the others' sums.
    await in_thread(client.set, mine, len(held), ex=max(1, math.ceil(3 * every)))
    keys = [k for k in await in_thread(scan_keys, client, _key(prefix, kind, "*")) if k != mine]
    values = await in_thread(client.mget, keys) if keys else []
    others = {k: int(v) for k, v in zip(keys, values, strict=True) if v is not None}
    # Is a process of the crowd's up? Asked only of a players' process holding some of theirs.
    crowd_up = (
        kind == "tables"
        and any(s.crowd for s in held)
        and bool(await in_thread(scan_keys, client, _key(prefix, "crowd", "*")))
    )
    moving = to_ask(held, others, crowd_up)
    count = len(moving)
    # The others' counts are up to a period old, and those it moved are counted nowhere until
    # they have reconnected: after moving some, it waits for the counts to catch up, or it
    # moves more than it should and they come back (the sockets would swing to and fro).
    if count and clock.monotonic() - _LAST_MOVE[0] < COOL_DOWN * every:
        return 0
    if count:
        _LAST_MOVE[0] = clock.monotonic()
        log.info(
            "balance: this process holds %d match sockets (%d of them the crowd's), the "
            "others of its kind %s: asking %d to reconnect",
            len(held), sum(s.crowd for s in held), sorted(others.values()), count,
        )  # fmt: skip
    for moved in moving:
        await moved.close(code=CLOSE_MOVED)
    return count


def scan_keys(client: redis.Redis, pattern: str) -> list[str]:
    return [k.decode() for k in client.scan_iter(match=pattern, count=100)]


async def in_thread(function: Any, *args: Any, **kwargs: Any) -> Any:
    from asgiref.sync import sync_to_async

    return await sync_to_async(function, thread_sensitive=False)(*args, **kwargs)


BALANCER = Periodic("balancing sockets", lambda: settings.SNOOKER["BALANCE_EVERY"], balance)


# The crowd's processes run below the players' priority: on a machine they share, a
# spectators' burst (a thousand sockets, their chat) waits for the players' strokes, never
# the other way round. 5: a third of the CPU the players' process would get when both want
# it, all of it when they do not.
CROWD_NICENESS = 5


def start_with_the_server() -> None:
    """Start balancing when daphne's event loop starts (as club/jobs.py's jobs); a crowd's
    process lowers its priority first."""
    from daphne.server import twisted_loop

    if settings.SNOOKER["CROWD"]:
        os.nice(CROWD_NICENESS)
    twisted_loop.call_soon(BALANCER.start)
