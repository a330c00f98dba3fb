"""Events keep the seat and the command a fold needs; the shot clock keeps its deadline.

Before this, the seat and the start's draw were read back out of the broadcast text, stroke
and choice requests carried the table version they were sent at, and the match kept when the
turn began instead of when the striker's time runs out.
"""

import json
from datetime import timedelta

from django.db import migrations, models

_COMMAND_KEYS = {
    "stroke": ("angle", "speed", "side", "height", "nominated", "cue_ball"),
    "choice": ("option",),
    "concede": ("scope",),
    "claim": ("scope",),
    "toss": ("winner",),
    "shot_clock": (),
}


def forwards(apps, schema_editor):
    MatchEvent = apps.get_model("game", "MatchEvent")
    for event in MatchEvent.objects.all().iterator():
        payload = json.loads(event.payload)
        event.seat = payload.get("seat") or ""
        if event.kind == "start":
            event.command = {"draw": payload["request"]["draw"]}
        else:
            keys = _COMMAND_KEYS[event.kind]
            event.command = {k: event.command.get(k) for k in keys}
        event.save(update_fields=["seat", "command"])
    Match = apps.get_model("game", "Match")
    for match in Match.objects.all().iterator():
        frame = match.state["frame"]
        if match.shot_clock and match.status == "live" and frame["pending"] is None:
            match.deadline = match.turn_started + timedelta(seconds=match.shot_clock)
        match.state = _with_terminations(match, MatchEvent)
        match.save(update_fields=["deadline", "state"])


def _with_terminations(match, MatchEvent):
    """The stored state with how each frame and the match ended, which it did not keep: the
    replayed commands tell, and are used only if they give the stored state otherwise."""
    from rules import commands
    from rules.match import match_to_json, replay

    events = list(MatchEvent.objects.filter(match=match).order_by("version"))
    try:
        replayed = match_to_json(
            replay(
                match.best_of, events[0].command["draw"],
                [(e.seat or None, commands.from_json(e.kind, e.command)) for e in events[1:]],
            )
        )  # fmt: skip
    except Exception:
        return match.state  # an event the rules no longer read: keep the state as stored
    bare = json.loads(json.dumps(replayed))
    bare.pop("termination")
    for frame in bare["frames"]:
        frame.pop("termination")
    return replayed if bare == match.state else match.state


class Migration(migrations.Migration):
    dependencies = [("game", "0002_event_text")]

    operations = [
        migrations.RenameField("matchevent", "request", "command"),
        migrations.AddField(
            "matchevent",
            "seat",
            models.CharField(blank=True, default="", max_length=1),
            preserve_default=False,
        ),
        migrations.AddField("match", "deadline", models.DateTimeField(blank=True, null=True)),
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.RemoveField("match", "turn_started"),
    ]
