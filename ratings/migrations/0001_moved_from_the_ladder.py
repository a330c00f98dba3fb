"""The ratings move out of the ladder: the models `ladder.Rating`, `ladder.RatedResult` and
`ladder.RatingChange` become this app's, on the very tables and rows they had (state only:
nothing is written here). `ladder.0009_ratings_moved_out` takes them out of the ladder's
state; 0002 gives the tables this app's names and each result its kind."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = [
    migrations.CreateModel(
        name="Rating",
        fields=[
            (
                "member",
                models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE,
                    primary_key=True,
                    related_name="rating",
                    serialize=False,
                    to=settings.AUTH_USER_MODEL,
                ),
            ),
            ("rating", models.FloatField(default=1500.0)),
            ("rd", models.FloatField(default=350.0, verbose_name="deviation")),
            ("volatility", models.FloatField(default=0.06)),
            ("played", models.PositiveIntegerField(default=0, verbose_name="rated matches")),
            ("updated", models.DateTimeField(blank=True, null=True)),
        ],
        options={
            "verbose_name": "rating",
            "verbose_name_plural": "ratings",
            "db_table": "ladder_rating",
        },
    ),
    migrations.CreateModel(
        name="RatedResult",
        fields=[
            (
                "id",
                models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                ),
            ),
            ("score_a", models.FloatField()),
            ("at", models.DateTimeField()),
            ("voided", models.BooleanField(default=False)),
            ("void_note", models.CharField(blank=True, max_length=200)),
            (
                "unrated",
                models.CharField(
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
            ("strokes_a", models.PositiveIntegerField(blank=True, null=True)),
            ("strokes_b", models.PositiveIntegerField(blank=True, null=True)),
            (
                "ladder",
                models.ForeignKey(
                    blank=True,
                    null=True,
                    on_delete=django.db.models.deletion.SET_NULL,
                    related_name="+",
                    to="ladder.ladder",
                ),
            ),
            (
                "match",
                models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="rated_result",
                    to="game.match",
                ),
            ),
            (
                "player_a",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="+",
                    to=settings.AUTH_USER_MODEL,
                ),
            ),
            (
                "player_b",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="+",
                    to=settings.AUTH_USER_MODEL,
                ),
            ),
            (
                "voided_by",
                models.ForeignKey(
                    blank=True,
                    null=True,
                    on_delete=django.db.models.deletion.SET_NULL,
                    related_name="+",
                    to=settings.AUTH_USER_MODEL,
                ),
            ),
        ],
        options={
            "verbose_name": "rated result",
            "verbose_name_plural": "rated results",
            "ordering": ["at", "pk"],
            "db_table": "ladder_ratedresult",
        },
    ),
    migrations.CreateModel(
        name="RatingChange",
        fields=[
            (
                "id",
                models.BigAutoField(
                    auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                ),
            ),
            ("at", models.DateTimeField()),
            ("before", models.FloatField()),
            ("before_rd", models.FloatField()),
            ("after", models.FloatField()),
            ("after_rd", models.FloatField()),
            ("after_volatility", models.FloatField()),
            (
                "player",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="rating_changes",
                    to=settings.AUTH_USER_MODEL,
                ),
            ),
            (
                "result",
                models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="changes",
                    to="ratings.ratedresult",
                ),
            ),
        ],
        options={
            "ordering": ["at", "pk"],
            "db_table": "ladder_ratingchange",
            "indexes": [models.Index(fields=["player", "at"], name="rating_changes_by_player")],
            "constraints": [
                models.UniqueConstraint(fields=("result", "player"), name="one_change_per_player")
            ],
        },
    ),
]


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("game", "0005_rated_guest_practice"),
        ("ladder", "0008_ladder_shot_clock_always"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=MODELS)]
