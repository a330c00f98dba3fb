"""What the club tells the rest of the site (the ladder listens: ladder/apps.py), and its own
process (club/process.py).

`challenge_answered(challenge=..., answer=..., match=..., now=..., later=...)` is sent inside
the transaction that stored the answer (`club.service._answered`), after the challenge's row
was written: `answer` is "accept", "decline" or "withdraw", `match` the match an acceptance
made (else None), `later` whether a ladder challenge was accepted to be played at a time the
two agree rather than now. A receiver writes in the same transaction, so the answer and
whatever follows from it commit together or not at all; it must not broadcast (that happens
after commit).
"""

from django.dispatch import Signal

challenge_answered = Signal()

# `challenges_changed(news=...)` is sent once a transaction that changed challenges commits
# (`club.service.announce_on_commit`, called by the change itself); the club's process tells
# both parties of each challenge and the lobby (club/process.py).
challenges_changed = Signal()

# `ladder_changed(ladder=<id>)` is sent once a transaction that changed a ladder's standings or
# challenges commits (ladder/service.py: a join, a challenge made, answered or settled, a start
# time proposed or agreed, an organiser's move); the club's process tells every club socket,
# coalesced (club/process.py), and a page showing that ladder reads it again.
ladder_changed = Signal()

# `competition_changed(competition=<id>)` is sent once a transaction that changed a competition
# commits (competitions/service.py: an entry, the draw, a start time proposed or agreed, a
# result or walkover, a withdrawal, an organiser's decision); told like `ladder_changed` (a
# `competition` message to every club socket, coalesced), and a page showing that competition
# reads it again.
competition_changed = Signal()
