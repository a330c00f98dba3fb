"""The ratings' tables take this app's names (their rows with them), and each rated result
says what it was played as (`kind`): a ladder match if the ladder recorded it so (the old
`ladder` column, which the ratings no longer keep: the ladder finds its own results by their
match), else a friendly."""

from typing import Any

from django.db import migrations, models


def kinds(apps: Any, schema_editor: Any) -> None:
    RatedResult = apps.get_model("ratings", "RatedResult")
    RatedResult.objects.filter(ladder__isnull=False).update(kind="ladder")


def ladders(apps: Any, schema_editor: Any) -> None:
    """Backwards: each ladder result's ladder again, from its match's ladder challenge."""
    RatedResult = apps.get_model("ratings", "RatedResult")
    LadderChallenge = apps.get_model("ladder", "LadderChallenge")
    for result in RatedResult.objects.filter(kind="ladder"):
        ladder = (
            LadderChallenge.objects.filter(match_id=result.match_id)
            .values_list("ladder_id", flat=True)
            .first()
        )
        RatedResult.objects.filter(pk=result.pk).update(ladder_id=ladder)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_moved_from_the_ladder"),
        ("ladder", "0009_ratings_moved_out"),
    ]

    operations = [
        migrations.AlterModelTable(name="rating", table=None),
        migrations.AlterModelTable(name="ratedresult", table=None),
        migrations.AlterModelTable(name="ratingchange", table=None),
        migrations.AddField(
            model_name="ratedresult",
            name="kind",
            field=models.CharField(
                choices=[("friendly", "friendly"), ("ladder", "ladder match")],
                default="friendly",
                max_length=16,
                verbose_name="kind",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(kinds, ladders),
        migrations.RemoveField(model_name="ratedresult", name="ladder"),
    ]
