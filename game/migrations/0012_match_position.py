"""The index of live positions (game/positions.py): each live match's position key, written
with every version; the matches live when this runs are filed now, not at their next stroke."""

from typing import Any

from django.db import migrations, models

from rules.match import match_from_json
from rules.positions import key, position_of


def file_live_matches(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("game", "Match")
    for row in Match.objects.filter(status="live", practice=False).only("pk", "state"):
        state = match_from_json(row.state)
        found = None if state.over else position_of(state.frame)
        if found is not None:
            Match.objects.filter(pk=row.pk).update(position=key(found))


class Migration(migrations.Migration):
    dependencies = [("game", "0011_turn_began")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="position",
            field=models.CharField(blank=True, max_length=40, null=True),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(
                    ("position__isnull", False), ("practice", False), ("status", "live")
                ),
                fields=["position"],
                name="live_position",
            ),
        ),
        migrations.RunPython(file_live_matches, migrations.RunPython.noop),
    ]
