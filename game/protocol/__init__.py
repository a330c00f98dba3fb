"""The websocket protocol between browser and server (docs/protocol.md).

One module per direction, as lila-ws does: `client_in` is what a browser may send, `server_out`
what the server sends, `ipc` what server processes send each other on the channel layer.
Every message is a JSON object with a `type`; schemas forbid unknown fields, and anything that
does not parse is answered with an `error` and changes nothing.
"""

PROTOCOL_VERSION = 1

# Websocket close codes the server uses (4000-4999 are the application's own).
CLOSE_NOT_FOUND = 4404  # no such match
CLOSE_FLOOD = 4008  # the socket kept sending past its rate limit
CLOSE_FULL = 4029  # too many sockets from this address, or watching this match
# This process holds far more than its share of sockets (after a rolling restart): the page
# reconnects at once, through the proxy, to a process holding fewer (game/balance.py).
CLOSE_MOVED = 4012
# The server cannot serve the socket now (the database or Redis away, or its welcome not ready
# in time): the page reconnects, as after any close but CLOSE_NOT_FOUND (static/js/socket.js).
CLOSE_UNAVAILABLE = 4503
