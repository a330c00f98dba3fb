"""Rated results that changed no rating, and why (rules.ratings.rated_effect)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ladder", "0003_agreed_start_no_shows_cooldown")]

    operations = [
        migrations.AddField(
            model_name="ratedresult",
            name="unrated",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "rated"),
                    ("no_play", "a player never played a stroke"),
                    ("pair_cap", "too many rated results between the pair"),
                ],
                default="",
                max_length=16,
                verbose_name="unrated",
            ),
        ),
        migrations.AddField(
            model_name="ratedresult",
            name="strokes_a",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratedresult",
            name="strokes_b",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
