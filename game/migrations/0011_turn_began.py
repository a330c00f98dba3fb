"""When the turn of whoever is to act began (issue 36: a stall is measured from it): the
last event's time. A live match from before it is given its last stored event's time, so that
nobody becomes claimable the moment the club updates."""

from typing import Any

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery


def fill_turn_began(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("game", "Match")
    MatchEvent = apps.get_model("game", "MatchEvent")
    last = (
        MatchEvent.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(at=Max("created"))
        .values("at")
    )
    Match.objects.filter(status="live").update(turn_began=Subquery(last[:1]))


class Migration(migrations.Migration):
    dependencies = [("game", "0010_absence_found")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="turn_began",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_turn_began, migrations.RunPython.noop),
    ]
