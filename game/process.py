"""What one server process keeps across its sockets, so that no cost grows with them; each
part lives in a module of its own:

- game/heartbeats.py, `HEARTBEATS`: one presence write per beat for all the process's
  sockets, stale rows swept, presence broadcast only when it changed, coalesced.
- game/shotclocks.py, `CLOCKS`: one shot-clock timer per match, not one per socket.
- game/gates.py, `GATE`: how many sockets each address and each room holds here, against
  the caps, and how fast each address opens new ones; `Bucket` and `Flood` for a socket's
  messages. The club's sockets use them too.
- game/middleware.py, `TurnAway`: strangers over their rate refused before any consumer.
- game/broadcast.py, `LATEST`: the newest event version per match served here;
  game/greetings.py, `TABLES`: the spectators' welcome and the latest events, so a crowd
  costs one read a frame, not one a version; game/aims.py, `AIMS`: the last aim heard per
  match, sent after a welcome at its version; game/chatheld.py, `HELD`: the latest lines of the chat
  rooms spectators read, so a crowd is greeted with them from one read.
- game/fanout.py, `FANOUT`: one channel per process in each match group it serves, and a
  relay that hands each broadcast to the match's sockets here.
- game/work.py, `play`: the players' requests on a database thread of their own; `detach`
  for a consumer's clean-up that outlives it.
- game/supervise.py: every background task above (and the club's, the ladder's and the
  computer's) waits out an outage of the database or Redis and resumes by itself, with one
  log line when a dependency is lost and one when it is back; /healthz reports each task.

The channel layer carries events between processes (game/protocol/ipc.py,
game/broadcast.py); the database holds the truth.
"""

from __future__ import annotations

from chat.service import ROOM_RATES
from game import supervise, work
from game.aims import AIMS
from game.broadcast import LATEST
from game.chatheld import HELD
from game.fanout import FANOUT
from game.gates import GATE
from game.greetings import TABLES
from game.heartbeats import HEARTBEATS
from game.middleware import SESSIONS
from game.shotclocks import CLOCKS


def reset() -> None:
    """A clean process (tests: each runs on its own event loop)."""
    FANOUT.reset()
    work.reset()
    HEARTBEATS.reset()
    CLOCKS.reset()
    GATE.reset()
    SESSIONS.reset()
    LATEST.clear()
    TABLES.reset()
    supervise.reset()
    AIMS.reset()
    HELD.reset()
    ROOM_RATES.clear()
