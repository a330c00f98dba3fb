"""What a browser sends on a lobby or notices socket: `hello` once, then `ping` now and then,
and `say`, a line in the socket's chat room (the lobby's, or the competition's or ladder's
page's, named in the hello: docs/chat.md). Everything
else that changes something (challenging, answering) is a form POST with its CSRF token."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from game.protocol.client_in import MAX_SAY, BadMessage, ClientId, parse_with

MAX_MESSAGE_BYTES = 4096  # room for a chat line of 560 characters, each escaped


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class RoomRef(_Message):
    """The room of the page a notices socket is opened on: a competition's or a ladder's,
    by its id (docs/chat.md)."""

    kind: Literal["competition", "ladder"]
    key: Annotated[int, Field(gt=0, lt=2**31)]


class Hello(_Message):
    """`room`, on the notices socket only: the page's chat room, whose last lines follow the
    welcome and whose lines the socket hears from then (a visitor's notices socket is one for
    a room only: it is closed, `CLOSE_SIGNED_OUT`, without one)."""

    type: Literal["hello"]
    protocol: int
    room: RoomRef | None = None


class Ping(_Message):
    type: Literal["ping"]


class Say(_Message):
    """A line in the socket's room (the lobby's, or the page's named in the hello), as a
    match's `say` (game/protocol/client_in.py): `text`,
    a member's own words, or `preset`, a preset phrase's key (a guest's only words).
    Answered by the `line` broadcast to the room (the writer's own socket first), or by an
    `error` (`chat_*`), never by closing the socket."""

    type: Literal["say"]
    room: Literal["lobby", "competition", "ladder"] = "lobby"
    text: Annotated[str, Field(min_length=1, max_length=MAX_SAY)] | None = None
    preset: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    client_id: ClientId | None = None


ClientMessage = Annotated[Hello | Ping | Say, Field(discriminator="type")]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse(text: str | bytes | None) -> ClientMessage:
    return parse_with(_ADAPTER, MAX_MESSAGE_BYTES, text)


__all__ = ["BadMessage", "ClientMessage", "Hello", "Ping", "RoomRef", "Say", "parse"]
