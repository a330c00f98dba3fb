"""What the club tells the rest of the site (the ladder listens: ladder/apps.py).

`challenge_answered(challenge=..., answer=..., match=..., now=...)` is sent inside the
transaction that stored the answer (`club.service._answered`), after the challenge's row was
written: `answer` is "accept", "decline" or "withdraw", `match` the match an acceptance made
(else None). A receiver writes in the same transaction, so the answer and whatever follows
from it commit together or not at all; it must not broadcast (that happens after commit).
"""

from django.dispatch import Signal

challenge_answered = Signal()
