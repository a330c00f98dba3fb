"""The fields 0011 gave each challenge's fixture leave the ladder's challenges (the match, the
window, the agreed start and the proposal, the reminder, who waited and for how long alone);
every challenge has its fixture."""

from django.db import migrations, models

MOVED = [
    "match", "play_by", "start_at", "proposed_start", "proposed_by", "reminded",
    "challenger_waited", "defender_waited", "challenger_alone", "defender_alone",
    "challenger_seen_alone", "defender_seen_alone",
]  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0011_fixtures_from_challenges"),
    ]

    operations = [
        *(migrations.RemoveField(model_name="ladderchallenge", name=name) for name in MOVED),
        migrations.AlterField(
            model_name="ladderchallenge",
            name="fixture",
            field=models.OneToOneField(
                on_delete=models.deletion.PROTECT,
                related_name="ladder_challenge",
                to="fixtures.fixture",
            ),
        ),
    ]
