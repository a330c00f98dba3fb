"""The computer opponent in a process of its own (`manage.py play_computer`,
SNOOKER_COMPUTER_PROCESS): the daphne a member plays on leaves the computer's turns to it, it
picks up a turn that was waiting when it started, and then plays each turn the server tells
it of through Redis, its events reaching the member's socket like an opponent's.

Needs Redis and PostgreSQL, as the multi-process test; it fails, never skips, without them.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from tests.live.harness import Daphne, LiveClient, computer_player, next_move, run_ctl

_ids = itertools.count(1)


async def test_the_computers_own_process_plays_its_turns(
    server_env: dict[str, str], tmp_path: Path
) -> None:
    env = {**server_env, "SNOOKER_COMPUTER_PROCESS": "true",
           "SNOOKER_COMPUTER_ADDRESS_SECONDS": "0"}  # fmt: skip
    setup: dict[str, Any] = run_ctl(env, "computer")
    match = setup["match"]
    server = Daphne("daphne", env, tmp_path)
    player = None
    alice = LiveClient("alice", match, f"{setup['cookie_name']}={setup['sessions']['alice']}")
    try:
        server.wait_healthy()
        await alice.open(server, last_version=0)
        await alice.wait_version(1)
        assert alice.seat == "A"

        async def play_until_the_computer_has(strokes: int) -> None:
            """Alice acts whenever it is her turn, until the computer has played `strokes`."""
            while sum(e.get("seat") == "B" for e in alice.events) < strokes:
                if alice.snapshot["scoreboard"]["to_act"] == "A":
                    message = next_move(alice.snapshot, f"alice-{next(_ids)}")
                    await alice.send(message)
                    await alice.wait_until(lambda m=message: m["client_id"] in alice.acks, "ack")
                else:
                    seen = alice.version
                    await alice.wait_until(lambda s=seen: alice.version > s, "the computer",
                                           timeout=60)  # fmt: skip

        # Alice breaks off before the computer's process runs: the server plays nothing for
        # it, and the process, once started, finds the turn waiting.
        first = next_move(alice.snapshot, "alice-break")
        await alice.send(first)
        await alice.wait_until(lambda: "alice-break" in alice.acks, "the break-off's ack")
        player = computer_player(env, tmp_path)
        # Then every turn the server tells it of (RESUME only runs again after a minute).
        await play_until_the_computer_has(4)

        stored = run_ctl(env, "verify", str(match))
        assert stored["versions"] == list(range(1, stored["version"] + 1))
        theirs = [cid for actor, cid in stored["requests"] if actor == setup["computer"]]
        assert len(theirs) >= 4 and len(set(theirs)) == len(theirs)
        assert alice.problems == [] and alice.errors == []
        assert "Traceback" not in server.log()
        assert "Traceback" not in player.log()
        assert player.proc.poll() is None
    except BaseException:
        for process in (server, player):
            if process is not None:
                print(f"--- {process.name} log ---\n{process.log()}")
        raise
    finally:
        await alice.close()
        server.kill()
        if player is not None:
            player.stop()
