from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    """The club's ladders (the ratings beside them are the club's: ratings/)."""

    name = "ladder"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Ladders")

    def ready(self) -> None:
        # An answer to a ladder challenge reaches the ladder inside the transaction that stored
        # it (club/signals.py); a ladder match's decision (played out, or by its deadline's
        # default) through its fixture's hook (fixtures/service.py).
        from club import chat as club_chat
        from club.signals import challenge_answered
        from fixtures import service as fixtures_service
        from ladder import chat, service

        # The ladder's page carries its chat room (club/chat.py): who writes is the ladder's.
        club_chat.register("ladder", chat.writes)

        challenge_answered.connect(service.challenge_answered, dispatch_uid="ladder.answered")
        fixtures_service.register(service.FIXTURE_KIND, service.OWNER)
