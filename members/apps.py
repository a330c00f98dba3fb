from django.apps import AppConfig


class MembersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "members"
    verbose_name = "Club members and records"

    def ready(self) -> None:
        from members import signals

        signals.connect()
