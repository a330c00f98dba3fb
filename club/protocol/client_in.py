"""What a browser sends on a lobby or notices socket: `hello` once, then `ping` now and then.
Everything that changes something (challenging, answering) is a form POST with its CSRF
token, so the socket only listens."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

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


class BadMessage(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse(text: str | bytes | None) -> ClientMessage:
    if text is None or isinstance(text, bytes):
        raise BadMessage("bad_json", "messages are JSON text frames")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise BadMessage("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        return _ADAPTER.validate_json(text, strict=True)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        if first["type"] == "json_invalid":
            raise BadMessage("bad_json", f"not JSON: {first['msg']}") from None
        if not text.lstrip().startswith("{"):
            raise BadMessage("bad_message", "a message is a JSON object with a type") from None
        if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
            raise BadMessage("unknown_type", "unknown message type") from None
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise BadMessage("invalid", f"{where}: {first['msg']}") from None
