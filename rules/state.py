"""Frozen frame state, stroke outcome and their canonical JSON form.

The state holds only what the rules need between strokes; everything the scoreboard shows is
derived from it (`rules.scoreboard`). `FrameState.to_json()` is the canonical form used in logs,
storage and tests; `FrameState.from_json()` refuses bad data with a `StateFormatError` that names
the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeGuard

from rules.errors import StateFormatError
from rules.table import BALL_IDS, COLOURS, WHITE, Point, is_red

Player = Literal["A", "B"]
PLAYERS: tuple[Player, Player] = ("A", "B")

# Every option a player can be offered, in the order they are listed.
OPTIONS: tuple[str, ...] = ("play", "put_back", "replace", "from_d", "rebreak", "pass")
ON_VALUES: tuple[str, ...] = ("red", "colour", *COLOURS)

_ORDER = {ball: i for i, ball in enumerate(BALL_IDS)}


def opponent(player: Player) -> Player:
    return "B" if player == "A" else "A"


# RULES.md §10: a match without a handicap start.
NO_START: tuple[int, int] = (0, 0)


def start_refusal(start: tuple[int, int]) -> str | None:
    """Why `start` cannot be a match's handicap start (RULES.md §10), or None: each is a whole
    number of points, at least 0, and at most one player has one. The club's cap is a setting
    the service checks (settings.SNOOKER["HANDICAP_CAP"])."""
    if len(start) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in start):
        return "a start is a whole number of points for each player"
    if min(start) < 0:
        return "a start is never below 0"
    if min(start) > 0:
        return "only one player has a start"
    return None


def is_player(value: object) -> TypeGuard[Player]:
    return value in PLAYERS


Balls = tuple[tuple[str, Point], ...]


def make_balls(positions: Mapping[str, Point]) -> Balls:
    """The canonical (sorted, immutable) form of a ball map."""
    return tuple(
        sorted(
            ((b, (float(p[0]), float(p[1]))) for b, p in positions.items()),
            key=lambda item: _ORDER[item[0]],
        )
    )


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision someone must take before anything is played.

    `holder` is None while the server's draw for the re-spotted black is awaited. `restore`
    is the state before the foul stroke, kept for `replace`.
    """

    holder: Player | None
    options: tuple[str, ...]
    offender: Player | None = None
    restore: FrameState | None = None


@dataclass(frozen=True, slots=True)
class FrameState:
    balls: Balls
    striker: Player
    scores: tuple[int, int] = (0, 0)
    on: str = "red"
    in_hand: bool = False
    free_ball: bool = False
    opening: bool = False
    touching: str | None = None
    misses: int = 0
    brk: int = 0
    pending: Pending | None = None
    frame_over: bool = False
    winner: Player | None = None
    respotted_black: bool = False

    # --- derived facts -----------------------------------------------------------------
    def ball_map(self) -> dict[str, Point]:
        """A fresh dict of the balls on the table (the caller may change it)."""
        return dict(self.balls)

    def score(self, player: Player) -> int:
        return self.scores[PLAYERS.index(player)]

    @property
    def reds(self) -> tuple[str, ...]:
        return tuple(b for b, _ in self.balls if is_red(b))

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(b for b, _ in self.balls if b in COLOURS)

    @property
    def object_balls(self) -> tuple[str, ...]:
        return tuple(b for b, _ in self.balls if b != WHITE)

    @property
    def to_act(self) -> Player | None:
        """Who acts next: the holder of a pending choice, else the striker (None: the draw)."""
        if self.frame_over:
            return None
        if self.pending is not None:
            return self.pending.holder
        return self.striker

    def with_(self, **changes: Any) -> FrameState:
        return replace(self, **changes)

    # --- canonical form ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "balls": {b: [p[0], p[1]] for b, p in self.balls},
            "striker": self.striker,
            "scores": {"A": self.scores[0], "B": self.scores[1]},
            "on": self.on,
            "in_hand": self.in_hand,
            "free_ball": self.free_ball,
            "opening": self.opening,
            "touching": self.touching,
            "misses": self.misses,
            "break": self.brk,
            "frame_over": self.frame_over,
            "winner": self.winner,
            "respotted_black": self.respotted_black,
            "pending": None,
        }
        if self.pending is not None:
            p = self.pending
            out["pending"] = {
                "holder": p.holder,
                "options": list(p.options),
                "offender": p.offender,
                "restore": p.restore.to_json() if p.restore is not None else None,
            }
        return out

    def text(self) -> str:
        """One line, keys sorted: the form shown in errors and logs."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: object) -> FrameState:
        return _load_state(data, "state")


@dataclass(frozen=True, slots=True)
class Shot:
    """What happened in one stroke, as the physics reports it (SCENARIOS.md `shot`)."""

    first_contact: tuple[str, ...] = ()
    potted: tuple[str, ...] = ()
    off_table: tuple[str, ...] = ()
    jumped: bool = False  # the cue ball jumped over a ball (§9.9); the 2-D physics never does
    nominated: str | None = None
    cue_ball: Point | None = None
    after: tuple[tuple[str, Point], ...] = ()
    closest_on_mm: float | None = None


# --- loading -------------------------------------------------------------------------------
_STATE_KEYS = {
    "balls", "striker", "scores", "on", "in_hand", "free_ball", "opening", "touching",
    "misses", "break", "frame_over", "winner", "respotted_black", "pending",
}  # fmt: skip


def _fail(path: str, message: str) -> StateFormatError:
    return StateFormatError(path, message)


def load_point(value: object, path: str) -> Point:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise _fail(path, f"expected [x, y] in millimetres, got {value!r}")
    x, y = float(value[0]), float(value[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        raise _fail(path, "coordinates must be finite")
    return (x, y)


def load_balls(value: object, path: str) -> dict[str, Point]:
    if not isinstance(value, dict):
        raise _fail(path, "expected an object of ball id -> [x, y]")
    out: dict[str, Point] = {}
    for ball, pos in value.items():
        if ball not in _ORDER:
            raise _fail(f"{path}.{ball}", "unknown ball id")
        out[ball] = load_point(pos, f"{path}.{ball}")
    return out


def load_player(value: object, path: str, *, optional: bool = False) -> Player | None:
    if value is None and optional:
        return None
    if not is_player(value):
        raise _fail(path, f"expected 'A' or 'B', got {value!r}")
    return value


def load_scores(value: object, path: str) -> tuple[int, int]:
    if not isinstance(value, dict) or set(value) != {"A", "B"}:
        raise _fail(path, "expected {'A': n, 'B': n}")
    a, b = value["A"], value["B"]
    for key, v in (("A", a), ("B", b)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise _fail(f"{path}.{key}", f"expected a whole number >= 0, got {v!r}")
    return (a, b)


def load_on(value: object, path: str) -> str:
    if value not in ON_VALUES:
        raise _fail(path, f"expected one of {', '.join(ON_VALUES)}, got {value!r}")
    assert isinstance(value, str)
    return value


def _bool(data: dict[str, Any], key: str, path: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _fail(f"{path}.{key}", f"expected true or false, got {value!r}")
    return value


def _int(data: dict[str, Any], key: str, path: str) -> int:
    value = data.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(f"{path}.{key}", f"expected a whole number >= 0, got {value!r}")
    return value


def _load_state(data: object, path: str) -> FrameState:
    if not isinstance(data, dict):
        raise _fail(path, "expected an object")
    unknown = set(data) - _STATE_KEYS
    if unknown:
        raise _fail(f"{path}.{sorted(unknown)[0]}", "unknown field")
    for key in ("balls", "striker"):
        if key not in data:
            raise _fail(f"{path}.{key}", "missing")
    balls = load_balls(data["balls"], f"{path}.balls")
    striker = load_player(data["striker"], f"{path}.striker")
    assert striker is not None
    touching = data.get("touching")
    if touching is not None and touching not in balls:
        raise _fail(f"{path}.touching", f"{touching!r} is not on the table")
    pending: Pending | None = None
    raw = data.get("pending")
    if raw is not None:
        if not isinstance(raw, dict):
            raise _fail(f"{path}.pending", "expected an object or null")
        options = raw.get("options")
        if not isinstance(options, list) or any(o not in OPTIONS for o in options):
            raise _fail(f"{path}.pending.options", f"expected a list of {OPTIONS}")
        restore_raw = raw.get("restore")
        pending = Pending(
            holder=load_player(raw.get("holder"), f"{path}.pending.holder", optional=True),
            options=tuple(options),
            offender=load_player(raw.get("offender"), f"{path}.pending.offender", optional=True),
            restore=None
            if restore_raw is None
            else _load_state(restore_raw, f"{path}.pending.restore"),
        )
    return FrameState(
        balls=make_balls(balls),
        striker=striker,
        scores=load_scores(data.get("scores", {"A": 0, "B": 0}), f"{path}.scores"),
        on=load_on(data.get("on", "red"), f"{path}.on"),
        in_hand=_bool(data, "in_hand", path),
        free_ball=_bool(data, "free_ball", path),
        opening=_bool(data, "opening", path),
        touching=touching,
        misses=_int(data, "misses", path),
        brk=_int(data, "break", path),
        pending=pending,
        frame_over=_bool(data, "frame_over", path),
        winner=load_player(data.get("winner"), f"{path}.winner", optional=True),
        respotted_black=_bool(data, "respotted_black", path),
    )
