import json

from django.db import migrations, models


def _ended(payload: str) -> bool:
    """Whether a stored event ended its frame (`frame_end`, or the ruling's `frame_over` in
    events stored before `frame_end` was kept)."""
    try:
        data = json.loads(payload)
    except ValueError:
        return False
    if not isinstance(data, dict):
        return False
    ruling = data.get("ruling")
    over = isinstance(ruling, dict) and bool(ruling.get("frame_over"))
    return bool(data.get("frame_end")) or over


def fill_frames(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Number the frames of the events already stored, match by match, in version order."""
    Event = apps.get_model("game", "MatchEvent")
    matches = Event.objects.filter(frame__isnull=True).values_list("match_id", flat=True)
    for match_id in sorted(set(matches)):
        frame, rows = 1, []
        stored = Event.objects.filter(match_id=match_id).order_by("version")
        for pk, payload in stored.values_list("pk", "payload").iterator(chunk_size=200):
            rows.append(Event(pk=pk, frame=frame))
            if _ended(payload):
                frame += 1
        Event.objects.bulk_update(rows, ["frame"], batch_size=500)


class Migration(migrations.Migration):
    """Each event knows its frame, so a frame's referee log is read alone (the `log`
    message, docs/protocol.md)."""

    dependencies = [
        ("game", "0005_rated_guest_practice"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchevent",
            name="frame",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="matchevent",
            index=models.Index(fields=["match", "frame", "version"], name="event_frame"),
        ),
        migrations.RunPython(fill_frames, migrations.RunPython.noop),
    ]
