"""Typed errors of the rules core. Each carries a stable code for the protocol."""

from __future__ import annotations


class Refused(Exception):
    """A request refused, with nothing changed. `code` is stable (the protocol sends it and
    the pages word it); `message` says why in the protocol's words, for a client's author and
    the logs. The one base of every layer's refusals: a message that does not parse
    (`game.protocol.client_in.BadMessage`) and the services' errors (`game.service.
    ServiceError`, `club.service.ClubError`, `ladder.service.LadderError`,
    `computer.service.ComputerError`), so one `except Refused` answers any of them."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class IllegalRequest(ValueError):
    """A request the referee refuses; the state it was made against is unchanged.

    `code` is stable (the server sends it to the browser); the message names the request and
    shows the state in its canonical text form, so a log line is enough to reproduce it.
    """

    def __init__(self, code: str, message: str, state_text: str = "") -> None:
        self.code = code
        self.detail = message
        suffix = f" in {state_text}" if state_text else ""
        super().__init__(f"{code}: {message}{suffix}")


class StateFormatError(ValueError):
    """A stored or written frame state that cannot be loaded; names the field at fault."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")
