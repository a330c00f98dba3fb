"""The lobby's latest results read from an index (issue 42), not by sorting every finished
match's figures on each lobby page."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("members", "0003_figures_won_with_start"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name="matchfigures",
            index=models.Index(fields=["seat", "-finished", "-match"], name="figures_recent"),
        ),
    ]
