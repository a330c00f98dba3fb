"""The position editor's saved positions (docs/coach.md, "The position editor"): a member's
positions set up by hand, checked by the referee as a table set up there would be
(`rules.setup.check`), kept with a name and shared by their address.

The editor sends what the referee needs and nothing else: the balls, who is to play, the
scores, the ball on and whether the cue ball is in hand. Anything else, or anything that does
not parse, is refused `bad_payload`; a position the referee cannot play from is refused with
the referee's own code. Every refusal is a `ClubError` the pages word (club/text.py
`POSITION_ERRORS`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from club.lobby import is_guest
from club.models import Position
from club.service import ClubError
from rules import setup
from rules.errors import IllegalRequest, StateFormatError
from rules.state import FrameState
from rules.table import WHITE

# A member keeps at most this many positions: the editor lists them all on one page.
MAX_POSITIONS = 50
MAX_NAME = 60
# The fields the editor sends (FrameState.to_json's names); the rest are a visit's start.
FIELDS = {"balls", "striker", "scores", "on", "in_hand"}
# A frame's score is far under this; a larger one is a typing slip, not a position.
MAX_SCORE = 999


def parse(data: object) -> FrameState:
    """The position `data` (the editor's payload) describes, checked by the referee; a
    `ClubError` with the reason if it is not one a table can be set up at."""
    if not isinstance(data, dict) or not set(data) <= FIELDS or "balls" not in data:
        raise ClubError("bad_payload", f"a position is an object of {sorted(FIELDS)}")
    state: dict[str, Any] = {"striker": "A", **data}
    balls = state["balls"]
    # In hand, the cue ball is off the table (whatever the editor still had of it).
    if state.get("in_hand") is True and isinstance(balls, dict):
        state["balls"] = {k: v for k, v in balls.items() if k != WHITE}
    try:
        frame = FrameState.from_json(state)
    except (StateFormatError, TypeError, ValueError, OverflowError) as exc:
        raise ClubError("bad_payload", str(exc)) from None
    if max(frame.scores) > MAX_SCORE:
        raise ClubError("bad_score", f"a score is at most {MAX_SCORE}")
    try:
        return setup.set_up(frame)
    except IllegalRequest as exc:
        raise ClubError(exc.code, str(exc)) from None


def clean_name(name: object) -> str:
    text = " ".join(name.split()) if isinstance(name, str) else ""
    if not 1 <= len(text) <= MAX_NAME:
        raise ClubError("position_name", f"a name of 1 to {MAX_NAME} characters")
    return text


def save(user: User, name: object, data: object) -> Position:
    """Keep a position under `name` for `user` (a member, not a guest)."""
    if is_guest(user):
        raise ClubError("members_only", "the position editor is for members")
    text = clean_name(name)
    frame = parse(data)
    with transaction.atomic():
        # The owner's row locked, so that two saves at once cannot both pass the cap.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if Position.objects.filter(owner=user).count() >= MAX_POSITIONS:
            raise ClubError("too_many_positions", f"at most {MAX_POSITIONS} positions each")
        return Position.objects.create(owner=user, name=text, state=frame.to_json())


def delete(user: User, position_id: int) -> None:
    deleted, _ = Position.objects.filter(owner=user, pk=position_id).delete()
    if not deleted:
        raise ClubError("not_found", "no such position of yours")


def mine(user: User) -> list[Position]:
    return list(Position.objects.filter(owner=user).order_by("-created", "-pk"))


def frame_of(position: Position) -> FrameState:
    """The stored position as a frame to set a table up at (it was checked when saved)."""
    return FrameState.from_json(position.state)
