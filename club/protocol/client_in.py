"""What a browser sends on a lobby or notices socket: `hello` once, then `ping` now and then.
Everything that changes something (challenging, answering) is a form POST with its CSRF
token, so the socket only listens."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from game.protocol.client_in import BadMessage, parse_with

MAX_MESSAGE_BYTES = 1024


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Message):
    type: Literal["hello"]
    protocol: int


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Annotated[Hello | Ping, Field(discriminator="type")]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


def parse(text: str | bytes | None) -> ClientMessage:
    return parse_with(_ADAPTER, MAX_MESSAGE_BYTES, text)


__all__ = ["BadMessage", "ClientMessage", "Hello", "Ping", "parse"]
