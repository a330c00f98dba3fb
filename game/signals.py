"""What a match tells the rest of the site (the club's lobby listens: club/apps.py).

`match_changed(match_id=...)` is sent in the server's event loop after a stored event of the
match was published (after commit), and when the number watching it changed. Receivers must
be cheap and must not block: they note the match and return.

`match_finished(match=...)` is sent when the event that ends a match is stored, inside that
transaction, the match's row locked (`service._store`, however it ended: the last frame, a
concession, a claim, the shot clock): the members' records write its figures
(members/apps.py) and the ladder applies its result and rates it there (ladder/apps.py), once.
A receiver that may fail must do so in a savepoint of its own, so that the match still ends.

`match_started(match_id=...)` is sent once the transaction that started a match (both players
at the table together: game/presence.py) commits: a competition's page shows its match live
(competitions/apps.py). Receivers must be cheap: they note the match and return.

`stroke_settled(match=..., state=..., outcome=..., seat=...)` is sent after a practice table's
stroke is stored, inside its transaction (`service._apply`): a drill keeps its run there
(club/drills.py). A receiver may answer with a command the service then applies and stores for
the same seat, in the same transaction (a drill's run over ends its table: a concession), so
every change is stored before anything is broadcast and the match rebuilds from its events.
"""

from django.dispatch import Signal

match_changed = Signal()
match_finished = Signal()
match_started = Signal()
stroke_settled = Signal()
