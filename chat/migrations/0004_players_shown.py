from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0003_preference"),
    ]

    operations = [
        migrations.AddField(
            model_name="preference",
            name="players_shown",
            field=models.BooleanField(
                default=False, verbose_name="let spectators read my table's players' chat"
            ),
        ),
    ]
