from django.apps import AppConfig


class GameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "game"
    verbose_name = "Snooker games"

    def ready(self) -> None:
        # A moderator's deletion or timeout in a match's room reaches its pages at once.
        from chat.signals import moderated
        from game import chat

        moderated.connect(chat.moderated, dispatch_uid="game.chat")
