"""A match's agreed start time (issue 36): `Match.not_before`, before which being at the table
neither starts the match nor makes anyone claimable."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0008_aim_guide"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="not_before",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
