"""Who is online, across the server's processes (issue 38, point 7).

A member is online while at least one of their greeted club sockets (a page's notices, the
lobby's) is open in any process. Each process counts its own (`club.process.LOBBY.online`);
with Redis (REDIS_URL) each also says the names it holds under a key of its own that expires
unless said again (every `CLUB["SWEEP_EVERY"]` seconds, with the challenge sweep, and whenever
a name comes or goes), so a dead process's names drop out, and reads the others' keys: the
lobby's list is the union. One process (the in-memory layer, no REDIS_URL) has only its own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable

from channels.layers import get_channel_layer
from django.conf import settings

from game.balance import PROCESS, in_thread, redis_client, scan_keys

# Said for this many sweeps: a process that stops saying drops out of the others' lists.
KEPT_FOR_SWEEPS = 3


def key(prefix: str, process: str) -> str:
    return f"{prefix}online:{process}"


async def elsewhere(mine: Iterable[str]) -> set[str] | None:
    """Say this process's names (`mine`) and return the other processes' (None: no Redis,
    one process). Raises what Redis raised (the caller tries again)."""
    url = settings.REDIS_URL
    if not url:
        return None
    # CHANNEL_LAYER_PREFIX, as the layer has it: runs sharing one Redis are kept apart.
    prefix = getattr(get_channel_layer(), "prefix", "")
    client, own = redis_client(url), key(prefix, PROCESS)
    names = sorted(mine)
    if names:
        expiry = max(1, math.ceil(KEPT_FOR_SWEEPS * settings.CLUB["SWEEP_EVERY"]))
        await in_thread(client.set, own, json.dumps(names), ex=expiry)
    else:
        await in_thread(client.delete, own)
    keys = [k for k in await in_thread(scan_keys, client, key(prefix, "*")) if k != own]
    values = await in_thread(client.mget, keys) if keys else []
    found: set[str] = set()
    for value in values:
        if value is not None:
            found.update(json.loads(value))
    return found
