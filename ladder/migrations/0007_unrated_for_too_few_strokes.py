"""A rated result with too few strokes in all changes no rating (issue 36): the "little_play"
reason for an unrated result (rules.ratings.Effect.LITTLE_PLAY)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ladder", "0006_time_alone_and_unfinished")]

    operations = [
        migrations.AlterField(
            model_name="ratedresult",
            name="unrated",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "rated"),
                    ("no_play", "a player never played a stroke"),
                    ("little_play", "too few strokes were played"),
                    ("pair_cap", "too many rated results between the pair"),
                ],
                default="",
                max_length=16,
                verbose_name="unrated",
            ),
        ),
    ]
