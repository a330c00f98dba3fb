from django.apps import AppConfig


class ComputerConfig(AppConfig):
    """The computer opponent at the club: its members (one per level), the driver that plays
    for them, and the page to play it (docs/opponent.md, "At the club")."""

    name = "computer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The driver hears of every match's published events (game/signals.py).
        from computer import analysis, driver, service
        from game.signals import match_finished

        driver.listen()
        # A ladder's or a competition's finished match is analysed, if the club says so.
        match_finished.connect(analysis.match_finished, dispatch_uid="computer.analysis")
        # A guest who joins keeps their matches against the computer (accounts.signals).
        service.listen()
