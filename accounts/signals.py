"""What the accounts tell the apps above them, which they may not call (docs/architecture.md).

`joined`: a visitor joined the club. `member` is the new member; `previous` the user the
browser was logged in as until then (a guest, seated by an invitation or by one click to play
the computer), or None. An app that keeps something of a guest's for a member who joins
(computer/service.py, `adopt`) hears it here.
"""

from django.dispatch import Signal

joined = Signal()
