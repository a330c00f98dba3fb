from django.apps import AppConfig


class ClubConfig(AppConfig):
    """Challenges, guests, practice tables and the live lobby around the game's matches."""

    name = "club"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The lobby hears of every match's stored events (game/signals.py).
        from club.process import listen

        listen()
        # A rated friendly is rated when it ends, inside the transaction that stored its last
        # event (game/signals.py).
        from club import friendlies
        from game.signals import match_finished

        match_finished.connect(friendlies.match_finished, dispatch_uid="club.friendlies")
        # A drill keeps its run stroke by stroke, in the stroke's transaction (club/drills.py).
        from club import drills
        from game.signals import stroke_settled

        stroke_settled.connect(drills.after_stroke, dispatch_uid="club.drills")
        # The chat reads whom a member blocked from the club (chat/service.py), and the
        # club's rooms (the lobby's, the competitions' and the ladders') hear of the
        # moderators' actions in them (club/chat.py).
        from chat import service as chat_service
        from chat.signals import moderated
        from club import blocks, chat

        chat_service.read_blocks_with(blocks.blocked_by)
        moderated.connect(chat.moderated, dispatch_uid="club.chat")
