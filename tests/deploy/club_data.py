"""The Django side of the restore test, run as a subprocess against the scratch database named
by DATABASE_URL: `python -m tests.deploy.club_data fill|state|more`. Each prints one JSON
object on its last line."""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snooker_site.settings")

# Everything the club keeps, as Django's dumpdata writes it: members, sessions aside.
APPS = ("auth.user", "game", "ratings", "fixtures", "club", "ladder", "members")


def fill() -> dict[str, Any]:
    """A club with a history: members on the main ladder, two ladder matches played to the
    end (positions and ratings moved), a friendly under way and a challenge waiting."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from club import service as club_service
    from game import service as game_service
    from ladder.models import Ladder
    from rules.challenges import Format
    from tests.ladder.helpers import accepted, concede, on_ladder

    call_command("migrate", interactive=False, verbosity=0)
    users = get_user_model().objects
    ann, ben, cat, dan = (users.create_user(n, password=None) for n in ("ann", "ben", "cat", "dan"))
    main = Ladder.objects.get(main=True)
    main.best_of = 1
    main.save()
    on_ladder(main, ann, ben, cat, dan)
    concede(accepted(main, ben, ann), ann, "first")  # ben climbs over ann
    concede(accepted(main, dan, cat), dan, "second")  # cat holds
    friendly = game_service.create_match(cat, ann, best_of=3, draw="A")
    club_service.challenge(dan, ben, Format(3, 60, rated=True))
    # A member logged in: the dump leaves the session's row out (deploy/bin/snooker-backup).
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session["_auth_user_id"] = str(ann.pk)
    session.create()
    return {"friendly": friendly.pk}


def state() -> dict[str, Any]:
    """Every row the club keeps (dumpdata, in primary-key order), and what the pages read."""
    from django.core.management import call_command

    from ladder.models import Rung
    from ratings.models import Rating

    out = io.StringIO()
    call_command("dumpdata", *APPS, format="json", indent=None, stdout=out)
    rows = json.loads(out.getvalue())
    ladder = [
        [r.member.get_username(), r.position]
        for r in Rung.objects.select_related("member").order_by("ladder_id", "position")
    ]
    ratings = {r.member.get_username(): r.rating for r in Rating.objects.select_related("member")}
    kinds: dict[str, int] = {}
    for row in rows:
        kinds[row["model"]] = kinds.get(row["model"], 0) + 1
    from django.contrib.sessions.models import Session

    sessions = Session.objects.count()
    return {
        "rows": rows,
        "kinds": kinds,
        "ladder": ladder,
        "ratings": ratings,
        "sessions": sessions,
    }


def more() -> dict[str, Any]:
    """After a restore the club goes on: new rows take new keys (the sequences came back)."""
    from django.contrib.auth import get_user_model

    from game import service as game_service

    users = get_user_model().objects
    eve = users.create_user("eve", password=None)
    match = game_service.create_match(eve, users.get(username="ann"), best_of=1, draw="A")
    return {"match": match.pk, "user": eve.pk}


def main() -> None:
    import django

    django.setup()
    command = sys.argv[1]
    result = {"fill": fill, "state": state, "more": more}[command]()
    print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
