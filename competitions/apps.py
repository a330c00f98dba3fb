from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    """The club's competitions: knockouts drawn, played at the table as fixtures and decided
    there (competitions/service.py); the rules are pure (rules/seeding.py, rules/bracket.py)."""

    name = "competitions"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        # A competition match's decision (played out, or by its deadline's default) reaches
        # the competition through its fixture's hook (fixtures/service.py).
        from club import chat as club_chat
        from competitions import chat, service
        from fixtures import service as fixtures_service

        # The competition's page carries its chat room (club/chat.py).
        club_chat.register("competition", chat.writes)

        fixtures_service.register(service.FIXTURE_KIND, service.OWNER)
        # A competition match begun is shown live on the competition's page (game/signals.py).
        from game.signals import match_started

        match_started.connect(service.match_started, dispatch_uid="competitions.started")
