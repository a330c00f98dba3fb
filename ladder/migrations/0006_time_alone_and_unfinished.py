"""Who waited alone at the table of a ladder match not started (issue 36): the time each player
was seen there alone and when last, and the outcome of a match not finished in time, decided
by its score (rules/fixtures.py)."""

import datetime

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0005_ladder_name_ru"),
    ]

    operations = [
        migrations.AddField(
            model_name="ladderchallenge",
            name="challenger_alone",
            field=models.DurationField(default=datetime.timedelta(0)),
        ),
        migrations.AddField(
            model_name="ladderchallenge",
            name="challenger_seen_alone",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ladderchallenge",
            name="defender_alone",
            field=models.DurationField(default=datetime.timedelta(0)),
        ),
        migrations.AddField(
            model_name="ladderchallenge",
            name="defender_seen_alone",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="historyentry",
            name="how",
            field=models.CharField(
                blank=True,
                choices=[
                    ("played", "played"),
                    ("declined", "declined"),
                    ("unanswered", "not answered in time"),
                    ("unplayed", "not played in time"),
                    ("no_show", "not played: a player did not come"),
                    ("unfinished", "not finished in time: decided by the score"),
                    ("withdrawn", "withdrawn"),
                    ("cancelled", "cancelled by an organiser"),
                ],
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="ladderchallenge",
            name="outcome",
            field=models.CharField(
                blank=True,
                choices=[
                    ("played", "played"),
                    ("declined", "declined"),
                    ("unanswered", "not answered in time"),
                    ("unplayed", "not played in time"),
                    ("no_show", "not played: a player did not come"),
                    ("unfinished", "not finished in time: decided by the score"),
                    ("withdrawn", "withdrawn"),
                    ("cancelled", "cancelled by an organiser"),
                ],
                max_length=16,
            ),
        ),
    ]
