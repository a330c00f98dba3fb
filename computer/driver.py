"""The computer at the table: when one of its matches changes, it plays its turn like a member.

`game.signals.match_changed` is sent in the event loop after each published event. The
receiver only schedules `drive(match_id)` and returns. `drive` reads the match, and while a
computer seat is to act:

1. thinks in a bounded pool (`think`, a pure function of the stored match: the process pool
   keeps the event loop and the other tables free of its CPU);
2. tells the table it is thinking (`thinking`); once the balls of the last stroke have
   stopped on the watchers' tables (it thinks while they roll), stands over the ball for the
   stroke's address time (rules.opponent.address), sending its aims to the table's group
   like a browser's, so the table shows its cue lining up and settling;
3. submits the command through `game.service.submit`, exactly as a member's request (the
   same checks, the version it saw, a client id so a repeat is never applied twice), whose
   stored events the service broadcasts on commit, as for a member's.

Its reads and its requests go to channels' shared database thread, not to the members' own
(`game.work.play`): a member's stroke never waits behind the computer's, and the computer,
which waits a second before it strikes anyway, can wait behind a crowd's comings and goings.

Which matches are the computer's is read once per match per process and kept. One drive per
match runs at a time here; in another process a second one is harmless: its stale version or
repeated client id is refused or answered with the stored event.

A turn nobody's event announces (the server restarted while the computer was to play, or a
drive failed) is picked up by `RESUME`: when the server's loop starts and then every
`COMPUTER["RESUME_EVERY"]` seconds, a drive for each live match whose turn is the computer's
(the database reads whose turn it is from the stored state; a member's turn is left alone),
read in batches on a thread of its own, never channels' shared one, which seats new sockets.

Where it plays. By default in the servers, as above: one process (SQLite, the in-memory
channel layer) has nowhere else. A club with several processes and Redis may play the
computer's tables in a process of its own instead (`COMPUTER["OWN_PROCESS"]`, `manage.py
play_computer`, `serve`), at a lower priority than the members' servers: a server then does no
more for the computer's tables than for a member's, and only tells that process, on the
channel layer's `TURNS` channel, which of its matches moved. 20 tables against the computer
cost the members' acks what 20 more members' tables cost when the servers played them
(docs/opponent.md, "Measured"); apart, the computer's strokes, its reads and its requests are
no longer the servers' work.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper
from django.db.models import Q

from computer import analysis, lanes
from computer.thinking import start_worker, think
from game import clock, service, turns
from game.models import Match, MatchEvent
from game.protocol import client_in, server_out
from game.protocol.ipc import group_name
from game.signals import match_changed
from game.supervise import DEPENDENCIES, Periodic
from game.work import cancel, detach
from rules import commands
from rules.commands import Choose, Command, Concede, Stroke
from rules.match import match_from_json
from rules.opponent.address import address
from rules.state import Player

log = logging.getLogger(__name__)

_POOL: Executor | None = None
_KNOWN: dict[int, bool] = {}  # match id -> has a computer seat
# Every match that moves in a process is remembered here: forgotten all at once past this many
# (each is read again, once, at its next move), so the memory never grows with the club's age.
KNOWN_KEPT = 20_000
_BUSY: set[int] = set()
_TASKS: set[asyncio.Task[None]] = set()
# The channel on which the servers tell the computer's own process which of its matches moved.
TURNS = "computer.turns"
_OWN_PROCESS = [False]  # this is that process (`serve`)
_WITH_A_COMPUTER = Q(player_a__computer__isnull=False) | Q(player_b__computer__isnull=False)


def plays_here() -> bool:
    """Whether this process plays the computer's turns: the servers unless the computer has a
    process of its own, and that process."""
    return _OWN_PROCESS[0] or not settings.COMPUTER["OWN_PROCESS"]


def pool() -> Executor:
    """The bounded pool the computer thinks in (settings.COMPUTER["WORKERS"] processes)."""
    global _POOL
    if _POOL is None:
        # Spawned, not forked: a fork of a server with threads may inherit a held lock; a
        # spawned worker imports only computer.thinking and the rules core. It thinks at a
        # lower priority than the server's (computer.thinking.NICENESS).
        _POOL = ProcessPoolExecutor(
            max_workers=settings.COMPUTER["WORKERS"],
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
        )
    return _POOL


def use_pool(executor: Executor | None) -> None:
    """Think in `executor` instead (tests: a thread, no process to start)."""
    global _POOL
    _POOL = executor


ComputerTurn = tuple[User, Player, str, dict[str, Any], int, datetime]


def _know(match_id: int, has_a_computer_seat: bool) -> None:
    if match_id not in _KNOWN and len(_KNOWN) >= KNOWN_KEPT:
        _KNOWN.clear()
    _KNOWN[match_id] = has_a_computer_seat


def _turn(match_id: int) -> ComputerTurn | None:
    """The computer's user, seat and level, the stored match, its version and when its table
    is still, if a computer seat is to act now (and the match is the computer's); else None."""
    row = Match.objects.select_related("player_a__computer", "player_b__computer").get(pk=match_id)
    seats: dict[Player, User] = {"A": row.player_a, "B": row.player_b}
    computers = {s: u for s, u in seats.items() if hasattr(u, "computer")}
    _know(match_id, bool(computers))
    if not computers or row.status != Match.Status.LIVE:
        return None
    frame = match_from_json(row.state).frame
    seat = frame.to_act
    if seat is None or seat not in computers:
        return None
    user = computers[seat]
    return user, seat, user.computer.level, row.state, row.version, _still_at(row)


def _still_at(row: Match) -> datetime:
    """When the balls of the match's last event stop on the watchers' tables."""
    last = MatchEvent.objects.filter(match=row, version=row.version)
    created, payload = last.values_list("created", "payload").get()
    event = json.loads(payload)
    rolling = event["shot"]["duration"] if event.get("shot") else 0.0
    still = turns.still_after(rolling, bool(event.get("frame_end")), bool(event.get("match_end")))
    return created + timedelta(seconds=still)


def request_of(kind: str, data: dict[str, Any], version: int) -> service.PlayerRequest:
    """The request a browser would send for this command."""
    command: Command = commands.from_json(kind, data)
    client_id = f"computer-{version}"
    if isinstance(command, Stroke):
        return client_in.Stroke(
            type="stroke", client_id=client_id, version=version, angle=command.angle,
            speed=command.speed, side=command.side, height=command.height,
            nominated=command.nominated, cue_ball=command.cue_ball,
        )  # fmt: skip
    if isinstance(command, Choose):
        return client_in.Choose(
            type="choose", client_id=client_id, version=version,
            option=command.option,  # type: ignore[arg-type]
        )  # fmt: skip
    assert isinstance(command, Concede)
    return client_in.Concede(type="concede", client_id=client_id, scope=command.scope)


async def _tell_table(match_id: int, kind: str, text: str, version: int) -> None:
    """A message for the table's watchers, as a browser's aim is relayed (its last one is kept
    for a page that reloads: game/aims.py)."""
    layer = get_channel_layer()
    assert layer is not None
    message = {"type": kind, "text": text, "sender": "computer", "version": version}
    await layer.group_send(group_name(match_id), message)


async def _thinking(match_id: int, seat: Player, version: int) -> None:
    """Tell the table the computer is choosing its stroke at `version` (its watchers show it
    once the last stroke has stopped on their tables, until its aim comes)."""
    text = server_out.Thinking(seat=seat, version=version).text()
    await _tell_table(match_id, "match.thinking", text, version)


async def _address(
    match_id: int, seat: Player, version: int, level: str, meant: dict[str, Any],
    look: dict[str, Any] | None,
) -> None:  # fmt: skip
    """Stand over the ball as a player does: the cue swings in onto the line and settles, for
    the stroke's address time (rules.opponent.address: a tap-in quicker than a safety or an
    escape, a Novice slower than a Pro), each aim shown as a striker's browser shows it."""
    look = look or {"kind": "pot", "distance": 0.0, "cut": 0.0}
    plan = address(
        str(look["kind"]), level, float(look["distance"]), float(look["cut"]),
        float(meant["angle"]), base=settings.COMPUTER["ADDRESS_SECONDS"],
    )  # fmt: skip
    began = clock.monotonic()
    for at, angle in plan.aims:
        wait = began + at - clock.monotonic()
        if wait > 0:
            await clock.sleep(wait)
        aim = server_out.AimOut(
            seat=seat, angle=angle, speed=meant["speed"], side=meant["side"],
            height=meant["height"], cue_ball=meant["cue_ball"], version=version,
        ).text()  # fmt: skip
        await _tell_table(match_id, "match.aim", aim, version)
    wait = began + plan.seconds - clock.monotonic()
    if wait > 0:
        await clock.sleep(wait)


async def drive(match_id: int) -> None:
    """Play every turn the computer has in this match now."""
    if match_id in _BUSY:
        return
    _BUSY.add(match_id)
    try:
        while True:
            turn = await database_sync_to_async(_turn)(match_id)
            if turn is None:
                return
            user, seat, level, state, version, still_at = turn
            await _thinking(match_id, seat, version)
            # Ahead of any hint waiting for the pool (computer/lanes.py).
            kind, data = await lanes.stroke(
                pool(), think, state, seat, level, match_id * 100_003 + version
            )
            # It thinks while the balls roll, and plays once they have stopped, as a player
            # must: the watchers see each stroke end, and its tables go at a player's pace.
            rolling = (still_at - clock.now()).total_seconds()
            if rolling > 0:
                await clock.sleep(rolling)
            meant = data.pop("meant", None)
            look = data.pop("look", None)
            if meant is not None:
                await _address(match_id, seat, version, level, meant, look)
            try:
                # Its events are broadcast by the service, once stored.
                request = request_of(kind, data, version)
                await database_sync_to_async(service.submit)(match_id, user, request)
            except service.ServiceError as exc:
                # The table changed under it (a concession, a claim, another process): look again
                # only if the match moved on; a refusal of its own request would repeat.
                log.warning("computer request refused in match %s: %s", match_id, exc.code)
                if exc.code not in ("stale_version", "conflict", "busy"):
                    return
                continue
    except Exception as exc:
        # An outage is said once for the process; `RESUME` drives the match again once the
        # database or Redis is back. A bug keeps its traceback.
        if DEPENDENCIES.failed(exc, "the computer's drive") is None:
            log.exception("the computer failed in match %s", match_id)
    finally:
        _BUSY.discard(match_id)


def _schedule(match_id: int) -> asyncio.Task[None] | None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    task = loop.create_task(drive(match_id))
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


def _changed(sender: Any, match_id: int, **kwargs: Any) -> None:
    """Cheap, in the event loop: schedule a drive for the computer's matches (and for a match
    not yet known here, whose first read says), or tell the computer's own process."""
    if _KNOWN.get(match_id) is False or match_id in _BUSY:
        return
    if plays_here():
        _schedule(match_id)
    else:
        detach(_tell(match_id))


def _has_a_computer_seat(match_id: int) -> bool:
    return Match.objects.filter(_WITH_A_COMPUTER, pk=match_id).exists()


async def _tell(match_id: int) -> None:
    """Tell the computer's own process that one of its matches moved (it reads the rest)."""
    known = _KNOWN.get(match_id)
    if known is None:
        known = await database_sync_to_async(_has_a_computer_seat)(match_id)
        _know(match_id, known)
    if not known:
        return
    layer = get_channel_layer()
    assert layer is not None
    try:
        await layer.send(TURNS, {"type": "computer.turn", "match": match_id})
    except ChannelFull:
        # Nobody has been reading (the process is down): its `RESUME` finds the turn on start.
        log.warning("the computer's process is not taking its turns (match %s)", match_id)


async def serve() -> None:
    """The computer's own process (`manage.py play_computer`): play each turn the servers tell
    of, and those left waiting (`RESUME`, at once and then every so often)."""
    _OWN_PROCESS[0] = True
    warm()
    RESUME.start()
    ANALYSES.start()
    layer = get_channel_layer()
    assert layer is not None
    while True:
        try:
            message = await layer.receive(TURNS)
        except Exception as exc:  # Redis away a moment: what was sent meanwhile waits there
            if DEPENDENCIES.failed(exc, "the computer's turns") is None:
                log.exception("the computer could not hear of its turns; listening again")
            await asyncio.sleep(1)
            continue
        DEPENDENCIES.back("redis")  # said once, if it was away
        if message.get("type") == "computer.stop":
            # A test's way out: channels_redis's receive does not always end when cancelled.
            return
        match_id = message.get("match")
        if isinstance(match_id, int):
            _changed(None, match_id)


def _to_act(seat: Player) -> Q:
    """The stored match's frame waits for `seat`: its pending choice is theirs, or none is
    pending and they strike (rules.state.FrameState.to_act, read from the stored JSON)."""
    frame = "state__frame__"
    waits = Q(**{f"{frame}pending__holder": seat}) | Q(
        **{f"{frame}pending": None, f"{frame}striker": seat}
    )
    return waits & Q(**{f"{frame}frame_over": False})


# A live match whose turn is the computer's: its seat to act (the database reads the JSON).
_COMPUTERS_TURN = (Q(player_a__computer__isnull=False) & _to_act("A")) | (
    Q(player_b__computer__isnull=False) & _to_act("B")
)


def _waiting(after: int, batch: int) -> list[int]:
    """Up to `batch` live matches past id `after` whose turn is the computer's, by id."""
    rows = Match.objects.filter(_COMPUTERS_TURN, status=Match.Status.LIVE, pk__gt=after)
    return list(rows.order_by("pk").values_list("pk", flat=True)[:batch])


# The resume pass's reads go to a thread of their own, not channels' shared database thread,
# which seats every new socket: thousands of live matches must not hold up a handshake.
_RESUMING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer-resume")


async def _read_waiting(after: int, batch: int) -> list[int]:
    db = connections[DEFAULT_DB_ALIAS]
    if isinstance(db, SQLiteWrapper) and db.is_in_memory_db():
        # SQLite's shared in-memory test database answers a second thread "table is locked"
        # (as game.work.play): there, the shared thread.
        return await database_sync_to_async(_waiting)(after, batch)
    run = DatabaseSyncToAsync(_waiting, thread_sensitive=False, executor=_RESUMING)
    return await run(after, batch)


async def resume() -> list[asyncio.Task[None]]:
    """Drive every live match whose turn is the computer's and that is not being driven here,
    read `COMPUTER["RESUME_BATCH"]` at a time off the thread that seats sockets (a match whose
    turn is a member's is never read: their stroke's event drives it); the drives started."""
    batch = settings.COMPUTER["RESUME_BATCH"]
    tasks: list[asyncio.Task[None]] = []
    after = 0
    while True:
        ids = await _read_waiting(after, batch)
        for pk in ids:
            task = _schedule(pk) if pk not in _BUSY else None
            if task is not None:
                tasks.append(task)
        if len(ids) < batch:
            return tasks
        after = ids[-1]


RESUME = Periodic(
    "resuming the computer's turns", lambda: settings.COMPUTER["RESUME_EVERY"], resume
)


# The coach's analyses queued (computer/analysis.py), in the pool's background lane.
ANALYSES = Periodic("analysing frames", analysis.every, analysis.analyse_waiting)


def warm() -> None:
    """Start the pool's workers now, before any table needs them: a spawned worker's start
    (a new interpreter importing the rules core, a second or two of CPU) is not paid in the
    middle of play by the first decision."""
    pool().submit(int)


def start_with_the_server() -> None:
    """Start the pool (the hints', and the computer's turns' where the server plays them) and
    `RESUME` when daphne's event loop starts (as club/jobs.py's jobs)."""
    from daphne.server import twisted_loop

    twisted_loop.call_soon(warm)
    if plays_here():
        twisted_loop.call_soon(RESUME.start)
        twisted_loop.call_soon(ANALYSES.start)


def reset() -> None:
    """Forget every match (tests: each runs on its own event loop, and a later test's match
    may take an earlier one's id)."""
    for task in list(_TASKS):
        cancel(task)
    _TASKS.clear()
    _BUSY.clear()
    _KNOWN.clear()
    _OWN_PROCESS[0] = False
    RESUME.stop()
    ANALYSES.stop()
    lanes.reset()


def listen() -> None:
    match_changed.connect(_changed, dispatch_uid="computer.driver")
