"""The ratings are the club's, not the ladder's: `Rating`, `RatedResult` and `RatingChange`
leave the ladder's state for the ratings app's (ratings.0001 takes them, on the same tables
and rows; nothing is written here)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0008_ladder_shot_clock_always"),
        ("ratings", "0001_moved_from_the_ladder"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="RatingChange"),
                migrations.DeleteModel(name="RatedResult"),
                migrations.DeleteModel(name="Rating"),
            ]
        )
    ]
