from django.apps import AppConfig


class ChatConfig(AppConfig):
    """The club's chat: rooms keyed by what they belong to, their lines, timeouts and the
    moderators' actions (issue 41; docs/chat.md). A foundation beside the accounts: it knows
    no match, lobby or ladder; the app whose page a room belongs to says who is in it."""

    name = "chat"
    default_auto_field = "django.db.models.BigAutoField"
