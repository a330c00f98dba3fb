from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Coalesce, Greatest


def fill_started(apps, schema_editor):  # type: ignore[no-untyped-def]
    """Matches from before `started` was kept: one both players came to (or a practice
    table, or one with a stroke or more stored) counts as started when the later of the two
    came, as the old shot clock did; the rest have not started."""
    Match = apps.get_model("game", "Match")
    Match.objects.filter(practice=True).update(started=F("created"))
    came = Match.objects.filter(practice=False, arrived_a__isnull=False, arrived_b__isnull=False)
    came.update(started=Greatest("arrived_a", "arrived_b"))
    played = Match.objects.filter(started__isnull=True, version__gt=1)
    played.update(started=Coalesce("arrived_a", "arrived_b", "created"))


class Migration(migrations.Migration):
    """When a match started (both players at the table together), and the status of one
    abandoned before it did (issue 19: claims and no-shows)."""

    dependencies = [
        ("game", "0006_event_frame"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="started",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="match",
            name="status",
            field=models.CharField(
                choices=[("live", "Live"), ("finished", "Finished"), ("abandoned", "Abandoned")],
                default="live",
                max_length=16,
            ),
        ),
        migrations.RunPython(fill_started, migrations.RunPython.noop),
    ]
