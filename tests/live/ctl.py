"""The Django side of the multi-process test, run as a subprocess against its own database.

The test process keeps pytest-django's settings (maybe SQLite); the servers and this script
share a fresh PostgreSQL database named by DATABASE_URL, so everything touching that database
runs here: `python -m tests.live.ctl setup` (or `computer`: a match against the computer; or
`matches N`: N matches of two members each; or `moderate NAME`: an organiser's timeout and
troll mark) and `python -m tests.live.ctl verify MATCH_ID`.
Each prints one JSON object on its last line.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from tests.live.harness import logged_in_session

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snooker_site.settings")


def setup() -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from game import service

    call_command("migrate", interactive=False, verbosity=0)
    users = get_user_model().objects
    alice = users.create_user("alice", password="pw")
    bob = users.create_user("bob", password="pw")
    match = service.create_match(alice, bob, best_of=1, draw="A")
    return {
        "match": match.pk,
        "cookie_name": settings.SESSION_COOKIE_NAME,
        "sessions": {"alice": logged_in_session(alice), "bob": logged_in_session(bob)},
    }


def computer() -> dict[str, Any]:
    """Alice and a match of hers against the computer's Novice (one frame)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from computer.service import play_computer

    call_command("migrate", interactive=False, verbosity=0)
    alice = get_user_model().objects.create_user("alice", password="pw")
    match = play_computer(alice, "novice", 1)
    return {
        "match": match.pk,
        "cookie_name": settings.SESSION_COOKIE_NAME,
        "sessions": {"alice": logged_in_session(alice)},
        "computer": match.player_b_id,
    }


def matches(count: int) -> dict[str, Any]:
    """`count` matches of two members each, long enough (best of 35) not to end in a test."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from game import service

    call_command("migrate", interactive=False, verbosity=0)
    users = get_user_model().objects
    rows = []
    for i in range(count):
        a = users.create_user(f"a{i}", password=None)  # no password: hashing is slow
        b = users.create_user(f"b{i}", password=None)
        match = service.create_match(a, b, best_of=35, draw="A")
        rows.append({"match": match.pk, "A": logged_in_session(a), "B": logged_in_session(b)})
    return {"cookie_name": settings.SESSION_COOKIE_NAME, "matches": rows}


def moderate(name: str) -> dict[str, Any]:
    """An organiser, from this process, times `name` out (from no room) and marks them a
    troll: the servers' sockets hear of it through Redis."""
    from django.contrib.auth import get_user_model

    from chat import moderation, service
    from game import clock

    users = get_user_model().objects
    organiser = users.create(username="organiser", is_staff=True)
    member = users.get(username=name)
    service.time_out(organiser, member.pk, "15m", "a test", clock.now())
    moderation.troll(organiser, member.pk, "a test", clock.now())
    return {"member": member.pk}


def verify(match_id: int) -> dict[str, Any]:
    from django.db import connection

    from game import service
    from game.models import Match, MatchEvent
    from rules.match import match_from_json

    row, snapshot = service.snapshot(match_id)
    events = list(MatchEvent.objects.filter(match_id=match_id).order_by("version", "pk"))
    return {
        "vendor": connection.vendor,
        "version": row.version,
        "status": row.status,
        "snapshot": snapshot.model_dump(mode="json", by_alias=True),
        "versions": [e.version for e in events],
        "requests": [[e.actor_id, e.client_id] for e in events if e.client_id is not None],
        "acked_at": {e.client_id: e.version for e in events if e.client_id is not None},
        "kinds": [e.kind for e in events],
        "rebuilt_equals_stored": service.rebuild(match_id)
        == match_from_json(Match.objects.get(pk=match_id).state),
    }


def main(argv: list[str]) -> None:
    import django

    django.setup()
    if argv[:1] == ["setup"]:
        result = setup()
    elif argv[:1] == ["computer"]:
        result = computer()
    elif argv[:1] == ["matches"] and len(argv) == 2:
        result = matches(int(argv[1]))
    elif argv[:1] == ["moderate"] and len(argv) == 2:
        result = moderate(argv[1])
    elif argv[:1] == ["verify"] and len(argv) == 2:
        result = verify(int(argv[1]))
    elif argv[:1] == ["verify"] and len(argv) > 2:  # several matches in one go
        result = {"matches": {m: verify(int(m)) for m in argv[1:]}}
    else:
        raise SystemExit(
            "usage: python -m tests.live.ctl setup | computer | matches COUNT | moderate NAME"
            " | verify MATCH_ID..."
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
