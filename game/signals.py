"""What a match tells the rest of the site (the club's lobby listens: club/apps.py).

`match_changed(match_id=...)` is sent in the server's event loop after a stored event of the
match was published (after commit), and when the number watching it changed. Receivers must
be cheap and must not block: they note the match and return.
"""

from django.dispatch import Signal

match_changed = Signal()
