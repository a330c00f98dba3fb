"""A ladder's name per language (issue 23): `name_ru`, shown on Russian pages; the club's main
ladder, made as "Club ladder" by 0002, is given its Russian name."""

from typing import Any

from django.db import migrations, models


def name_the_main_ladder(apps: Any, schema_editor: Any) -> None:
    Ladder = apps.get_model("ladder", "Ladder")
    Ladder.objects.filter(main=True, name="Club ladder", name_ru="").update(
        name_ru="Лестница клуба"
    )


class Migration(migrations.Migration):
    dependencies = [("ladder", "0004_unrated_results")]

    operations = [
        migrations.AddField(
            model_name="ladder",
            name="name_ru",
            field=models.CharField(
                blank=True,
                help_text="Shown on Russian pages.",
                max_length=60,
                verbose_name="name in Russian",
            ),
        ),
        migrations.RunPython(name_the_main_ladder, migrations.RunPython.noop),
    ]
