"""The club's main ladder, with the default settings (organisers change them in /admin/)."""

from django.db import migrations


def make(apps, schema_editor):  # type: ignore[no-untyped-def]
    Ladder = apps.get_model("ladder", "Ladder")
    if not Ladder.objects.filter(main=True).exists():
        Ladder.objects.create(name="Club ladder", slug="main", main=True)


class Migration(migrations.Migration):
    dependencies = [("ladder", "0001_ladders_and_ratings")]

    operations = [migrations.RunPython(make, migrations.RunPython.noop)]
