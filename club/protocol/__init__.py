"""The lobby's websocket protocol (docs/protocol.md, "Lobby"), one module per direction as
for the match: `client_in` is what a browser may send, `server_out` what the server sends,
`ipc` what server processes send each other.

Two routes speak it: `/ws/lobby/` (the lobby page: every lobby update, and the member's own
notices) and `/ws/notices/` (every other page of a member: their notices only).
"""

from game.protocol import CLOSE_FLOOD, CLOSE_FULL, CLOSE_MOVED, CLOSE_UNAVAILABLE

LOBBY_PROTOCOL = 1

# Close codes besides the match's flood (4008) and full (4029).
CLOSE_SIGNED_OUT = 4401  # notices are a member's or a guest's own: sign in first

__all__ = [
    "CLOSE_FLOOD", "CLOSE_FULL", "CLOSE_MOVED", "CLOSE_SIGNED_OUT", "CLOSE_UNAVAILABLE",
    "LOBBY_PROTOCOL",
]  # fmt: skip
