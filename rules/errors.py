"""Typed errors of the rules core. Each carries a stable code for the protocol."""

from __future__ import annotations


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
