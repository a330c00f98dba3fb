"""Settling the ladders' deadlines without anyone visiting a page, in every server process.

`SETTLER` runs `ladder.service.settle_due` at once and then every `LADDER["SETTLE_EVERY"]`
seconds (30) on the server's event loop, and announces the challenges it settled to both
parties (their notices, as any challenge's), and a ladder match's agreed start, a quarter of
an hour ahead, to both players (`remind`: a `reminder` on their notices' sockets).
`snooker_site/asgi.py` starts it when daphne's event loop starts (`start_with_the_server`),
so `make run` alone settles deadlines, and so does each of several processes: `settle_due`
takes every due row with `skip_locked` and writes it only if still due, so the processes share
the work and nothing is settled twice. Where no server runs for a while,
`manage.py settle_ladders` from cron does the same pass.
"""

from __future__ import annotations

import logging
from datetime import datetime

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from club import lobby
from club.protocol import server_out
from club.protocol.ipc import TextMessage
from game.protocol.ipc import user_group
from game.supervise import Periodic
from ladder import service
from ladder.models import LadderChallenge

log = logging.getLogger(__name__)


async def settle(now: datetime | None = None) -> service.Settled:
    """One pass: settle what is due (each settled challenge is announced as its write
    commits), then send the reminders."""
    done = await database_sync_to_async(service.settle_due)(now, settings.LADDER["SETTLE_BATCH"])
    if done:
        log.info("ladder: settled %s, rated %s", done.challenges, done.rated)
    await remind(done.reminders)
    return done


# Settle now and every SETTLE_EVERY seconds on the running loop (0 or less: never, for a club
# that settles from cron alone); the club's own jobs run the same way (club/jobs.py).
SETTLER = Periodic("settling deadlines", lambda: settings.LADDER["SETTLE_EVERY"], settle)


def _reminders(pks: tuple[int, ...]) -> list[tuple[int, str]]:
    """Each player's reminder of their ladder match's agreed start (user id, text)."""
    rows = LadderChallenge.objects.filter(
        pk__in=pks, fixture__start_at__isnull=False
    ).select_related(
        "fixture", "challenger", "defender", "challenge__challenger", "challenge__target"
    )
    out = []
    for row in rows:
        assert row.fixture.start_at is not None
        club_row = lobby.challenge_row(row.challenge)
        for me, other in ((row.challenger, row.defender), (row.defender, row.challenger)):
            text = server_out.Reminder(
                challenge=club_row, opponent=other.get_username(), at=row.fixture.start_at
            ).text()
            out.append((me.pk, text))
    return out


async def remind(pks: tuple[int, ...]) -> None:
    """Tell both players of each ladder match that its agreed start is near, on every socket
    of theirs (the notices' group per user, in every process)."""
    if not pks:
        return
    layer = get_channel_layer()
    assert layer is not None
    for user_id, text in await database_sync_to_async(_reminders)(pks):
        message: TextMessage = {"type": "club.notice", "text": text}
        await layer.group_send(user_group(user_id), dict(message))


def start_with_the_server() -> None:
    """Start the settler when daphne's event loop starts running (daphne has no ASGI lifespan:
    the callback waits in the loop it is about to run). In a process that never runs that loop
    (tests, `manage.py`), nothing happens."""
    from daphne.server import twisted_loop

    twisted_loop.call_soon(SETTLER.start)
