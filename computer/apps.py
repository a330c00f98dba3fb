from django.apps import AppConfig


class ComputerConfig(AppConfig):
    """The computer opponent at the club: its members (one per level), the driver that plays
    for them, and the page to play it (docs/opponent.md, "At the club")."""

    name = "computer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The driver hears of every match's published events (game/signals.py).
        from computer import driver, service

        driver.listen()
        # A guest who joins keeps their matches against the computer (accounts.signals).
        service.listen()
