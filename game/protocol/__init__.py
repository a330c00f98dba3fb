"""The websocket protocol between browser and server (docs/protocol.md).

One module per direction, as lila-ws does: `client_in` is what a browser may send, `server_out`
what the server sends. Every message is a JSON object with a `type`; schemas forbid unknown
fields, and anything that does not parse is answered with an `error` and changes nothing.
"""

PROTOCOL_VERSION = 1
