"""Indexes for what grows with the club's age (issue 42): the live matches (the lobby, a
member's own live matches, the no-shows' and the computer's passes), a member's matches of the
last hour (the limit on matches against the computer) and the recent rated finished ones (the
ratings' catch-up pass), so that those reads no longer walk every match ever played."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0012_match_position"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("status", "live")), fields=["id"], name="live_matches"
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("status", "live")), fields=["player_a"], name="live_by_player_a"
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("status", "live")), fields=["player_b"], name="live_by_player_b"
            ),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["player_a", "created"], name="matches_by_player_a_made"),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(
                condition=models.Q(("rated", True), ("status", "finished")),
                fields=["created"],
                name="rated_finished",
            ),
        ),
    ]
