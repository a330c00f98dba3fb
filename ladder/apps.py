from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    """The club's ladders and the members' ratings."""

    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Ladders and ratings")

    def ready(self) -> None:
        # An answer to a ladder challenge and the end of a match reach the ladder inside the
        # transactions that stored them (club/signals.py, game/signals.py).
        from club.signals import challenge_answered
        from game.signals import match_finished
        from ladder import service

        challenge_answered.connect(service.challenge_answered, dispatch_uid="ladder.answered")
        match_finished.connect(service.match_finished, dispatch_uid="ladder.match_finished")
