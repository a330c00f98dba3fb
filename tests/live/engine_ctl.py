"""The Django side of the cross-process test of engine help (tests/live/test_engine_help.py),
each command a process of its own against the scratch database named by DATABASE_URL:

- `live`: Bob and Carol's live, rated match, two strokes in (the index written as they are
  stored); `over MATCH`: Bob concedes it.
- `hint`: Alice replays those strokes at her practice table and asks the hint view for the
  Pro's stroke.

Each prints one JSON object on its last line.
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snooker_site.settings")


def live() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from game import service
    from tests.computer.test_engine_help import STROKES, play
    from tests.game.helpers import started

    call_command("migrate", interactive=False, verbosity=0)
    users = get_user_model().objects
    bob, carol = users.create_user("bob"), users.create_user("carol")
    users.create_user("alice")
    match = started(service.create_match(bob, carol, 3, draw="A", rated=True))
    row = play(match, {"A": bob, "B": carol}, STROKES)
    return {"match": row.pk, "position": row.position}


def over(match_id: str) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from game import service
    from game.protocol import client_in

    bob = get_user_model().objects.get(username="bob")
    concede = client_in.Concede(type="concede", client_id="gg", scope="match")
    service.submit(int(match_id), bob, concede)
    return {}


def hint() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from club.service import practise
    from computer import driver
    from tests.computer.test_engine_help import STROKES, play

    driver.use_pool(ThreadPoolExecutor(max_workers=1))
    alice = get_user_model().objects.get(username="alice")
    table = play(practise(alice, 1), alice, STROKES)
    page = Client(HTTP_HOST="localhost")  # one of DEBUG's hosts
    page.force_login(alice)
    answer = page.post(f"/computer/hint/{table.pk}/")
    return {"status": answer.status_code, "code": answer.json().get("code")}


def main() -> None:
    import django

    django.setup()
    command, *args = sys.argv[1:]
    result = {"live": live, "over": over, "hint": hint}[command](*args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
