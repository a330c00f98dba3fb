from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

LEVELS = ("novice", "club", "pro")


def seats(apps: Any, schema_editor: Any) -> None:
    """One inactive user per level (no password: nobody signs in as the computer). Made
    without the members' signal, so no directory entry: the computer cannot be challenged."""
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Computer = apps.get_model("computer", "Computer")
    for level in LEVELS:
        user, _ = User.objects.get_or_create(
            username=f"computer-{level}", defaults={"password": "!", "is_active": False}
        )
        Computer.objects.get_or_create(level=level, defaults={"user": user})


class Migration(migrations.Migration):
    initial = True

    dependencies = [migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    operations = [
        migrations.CreateModel(
            name="Computer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "level",
                    models.CharField(
                        choices=[("novice", "Novice"), ("club", "Club"), ("pro", "Pro")],
                        max_length=8,
                        unique=True,
                    ),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="computer",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(seats, migrations.RunPython.noop),
    ]
