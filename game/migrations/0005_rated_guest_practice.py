from django.db import migrations, models


class Migration(migrations.Migration):
    """The club around the table: a match is rated or not, may seat a guest, or be one
    member's practice (player_a is player_b). Matches from before are unrated friendlies."""

    dependencies = [
        ("game", "0004_arrivals"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="rated",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="match",
            name="guest",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="match",
            name="practice",
            field=models.BooleanField(default=False),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("practice", True),
                    models.Q(("player_a", models.F("player_b")), _negated=True),
                    _connector="OR",
                ),
                name="two_players_unless_practice",
            ),
        ),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("rated", False),
                    models.Q(("guest", False), ("practice", False)),
                    _connector="OR",
                ),
                name="rated_only_between_members",
            ),
        ),
    ]
