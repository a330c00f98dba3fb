"""What the club tells the rest of the site (the ladder listens: ladder/apps.py), and its own
process (club/process.py).

`challenge_answered(challenge=..., answer=..., match=..., now=...)` is sent inside the
transaction that stored the answer (`club.service._answered`), after the challenge's row was
written: `answer` is "accept", "decline" or "withdraw", `match` the match an acceptance made
(else None). A receiver writes in the same transaction, so the answer and whatever follows
from it commit together or not at all; it must not broadcast (that happens after commit).
"""

from django.dispatch import Signal

challenge_answered = Signal()

# `challenges_changed(news=...)` is sent once a transaction that changed challenges commits
# (`club.service.announce_on_commit`, called by the change itself); the club's process tells
# both parties of each challenge and the lobby (club/process.py).
challenges_changed = Signal()
