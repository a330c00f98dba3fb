from django.apps import AppConfig


class MembersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "members"
    verbose_name = "Club members and records"

    def ready(self) -> None:
        # A match's figures are written when it ends, inside the transaction that stored its
        # last event, as the ladder hears the same moment (game/signals.py).
        from game.signals import match_finished
        from members import figures, signals

        signals.connect()
        match_finished.connect(figures.record_finished, dispatch_uid="members.figures")
