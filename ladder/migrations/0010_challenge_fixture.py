"""A ladder challenge's match is its fixture (fixtures.Fixture): the link, null until
0011 makes each challenge's fixture; the constraint and indexes on the fields that move go
first, so that migrating back re-adds them only once 0011 has copied the fields back."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0009_ratings_moved_out"),
        ("fixtures", "0001_fixtures"),
        # After the ratings' own migrations, whose way back reads the ladder challenges' match.
        ("ratings", "0002_own_tables_and_kind"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="ladderchallenge", name="accepted_ladder_challenge_has_a_match"
        ),
        migrations.RemoveIndex(model_name="ladderchallenge", name="ladder_accepted_by_deadline"),
        migrations.RemoveIndex(model_name="ladderchallenge", name="ladder_accepted_by_start"),
        migrations.AddField(
            model_name="ladderchallenge",
            name="fixture",
            field=models.OneToOneField(
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="ladder_challenge",
                to="fixtures.fixture",
            ),
        ),
    ]
