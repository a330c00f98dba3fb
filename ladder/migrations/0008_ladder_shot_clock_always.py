"""Every ladder has a shot clock (issue 36: a ladder match is rated, and a rated match always
has one, so that nobody can stall it): a ladder that had none gets the club's generous one
(SNOOKER_RATED_SHOT_CLOCK, 120 s), and the field takes no empty value from now on."""

from typing import Any

from django.conf import settings
from django.db import migrations, models

import ladder.models


def give_every_ladder_a_clock(apps: Any, schema_editor: Any) -> None:
    Ladder = apps.get_model("ladder", "Ladder")
    Ladder.objects.filter(shot_clock__isnull=True).update(
        shot_clock=settings.CLUB["RATED_SHOT_CLOCK"]
    )


class Migration(migrations.Migration):
    dependencies = [("ladder", "0007_unrated_for_too_few_strokes")]

    operations = [
        migrations.RunPython(give_every_ladder_a_clock, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="ladder",
            name="shot_clock",
            field=models.PositiveIntegerField(
                choices=[(30, "30 s"), (45, "45 s"), (60, "60 s"), (120, "120 s")],
                default=ladder.models.rated_shot_clock,
                help_text="Seconds a stroke; each time it runs out is a foul.",
                verbose_name="shot clock",
            ),
        ),
    ]
