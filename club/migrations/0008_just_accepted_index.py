"""A member's challenges accepted in the last minutes, read on every lobby welcome, from an index
on the answer's time (issue 42), not through every challenge they ever made."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0007_positions"),
        ("game", "0013_live_and_rated_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                condition=models.Q(("status", "accepted")),
                fields=["challenger", "answered"],
                name="challenge_just_accepted",
            ),
        ),
    ]
