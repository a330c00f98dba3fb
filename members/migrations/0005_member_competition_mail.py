"""A member's competitions' news by e-mail, or not (issue 39: on unless they turn it off)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("members", "0004_recent_figures_index")]

    operations = [
        migrations.AddField(
            model_name="member",
            name="competition_mail",
            field=models.BooleanField(default=True),
        ),
    ]
