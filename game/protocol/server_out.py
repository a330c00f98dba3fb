"""Messages the server sends. Built here and nowhere else: every message, and every value
nested in one (snapshot, ruling, shot), is a typed model that builds itself from the rules
core's values and serialises itself. The service and the consumer hand over domain values and
send the text these models make; an event's text is made once, stored, and sent to everyone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from game.protocol import PROTOCOL_VERSION
from rules import commands, referee
from rules.commands import Choose, Claim, Command, Concede, ShotClockExpired, Stroke, Toss
from rules.match import FrameRecord, Outcome, frames_to_win, scoreboard
from rules.match import Match as MatchState
from rules.outcome import End, Termination
from rules.physics import ShotResult
from rules.state import FrameState, Pending, Player
from rules.table import WHITE

Seat = Literal["A", "B"]
Point = tuple[float, float]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")

    def text(self) -> str:
        return self.model_dump_json(by_alias=True)


# --- values nested in messages ---------------------------------------------------------------
class Scores(_Out):
    A: int
    B: int

    @classmethod
    def of(cls, pair: tuple[int, int]) -> Scores:
        return cls(A=pair[0], B=pair[1])


class RestoreOut(_Out):
    """Where `replace` would put every ball back (the cue ball in hand if the foul stroke
    was played from hand): public, since everyone saw the table before the stroke."""

    balls: dict[str, Point]
    in_hand: bool


class PendingOut(_Out):
    """A decision awaited: `holder` is null while the server's draw is due. `restore` is
    the table `replace` would bring back (null when `replace` is not offered; absent from
    events stored before it was sent)."""

    holder: Seat | None
    options: list[str]
    offender: Seat | None
    restore: RestoreOut | None = None

    @classmethod
    def of(cls, pending: Pending) -> PendingOut:
        back = pending.restore if "replace" in pending.options else None
        restore = None
        if back is not None:
            balls = {b: p for b, p in back.balls if not (b == WHITE and back.in_hand)}
            restore = RestoreOut(balls=balls, in_hand=back.in_hand)
        return cls(
            holder=pending.holder, options=list(pending.options), offender=pending.offender,
            restore=restore,
        )  # fmt: skip


class FrameOut(_Out):
    """The frame being played, as `rules.state.FrameState` holds it."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    balls: dict[str, Point]
    striker: Seat
    scores: Scores
    on: str
    in_hand: bool
    free_ball: bool
    opening: bool
    touching: str | None
    misses: int
    brk: int = Field(validation_alias="break", serialization_alias="break")
    pending: PendingOut | None
    frame_over: bool
    winner: Seat | None
    respotted_black: bool

    @classmethod
    def of(cls, frame: FrameState) -> FrameOut:
        return cls(
            balls=dict(frame.balls), striker=frame.striker, scores=Scores.of(frame.scores),
            on=frame.on, in_hand=frame.in_hand, free_ball=frame.free_ball, opening=frame.opening,
            touching=frame.touching, misses=frame.misses, brk=frame.brk,
            pending=PendingOut.of(frame.pending) if frame.pending else None,
            frame_over=frame.frame_over, winner=frame.winner,
            respotted_black=frame.respotted_black,
        )  # fmt: skip


class EndOut(_Out):
    """How a frame or the match ended (null termination: stored before reasons were kept)."""

    termination: Termination | None
    winner: Seat

    @classmethod
    def of(cls, end: End | None) -> EndOut | None:
        return None if end is None else cls(termination=end.termination, winner=end.winner)


class FrameRecordOut(_Out):
    number: int
    breaker: Seat
    winner: Seat
    scores: Scores
    termination: Termination | None

    @classmethod
    def of(cls, record: FrameRecord) -> FrameRecordOut:
        return cls(
            number=record.number, breaker=record.breaker, winner=record.winner,
            scores=Scores.of(record.scores), termination=record.termination,
        )  # fmt: skip


class ScoreboardOut(_Out):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    scores: Scores
    frames: Scores
    frame_number: int
    striker: Seat
    to_act: Seat | None
    on: str
    brk: int = Field(validation_alias="break", serialization_alias="break")
    points_remaining: int
    snookers_required: Scores
    # The handicap start, part of `scores` (RULES.md §10); absent from events stored before
    # starts existed, which read as none.
    start: Scores = Field(default_factory=lambda: Scores(A=0, B=0))


class TurnOut(_Out):
    """What the rules allow the striker now, so the browser never works it out itself."""

    balls_on: list[str]  # the balls on (a free ball may stand in for them)
    nominate: list[str]  # the balls the striker may nominate; empty when none is needed


class ShotClockOut(_Out):
    seconds: int | None
    deadline: datetime | None


class Snapshot(_Out):
    """Everything a browser shows at `version`: the whole public state of the match."""

    version: int
    status: Literal["live", "finished"]
    best_of: int
    frames_to_win: int
    first_breaker: Seat
    winner: Seat | None
    result: EndOut | None  # how the match ended
    frames: list[FrameRecordOut]
    frame: FrameOut
    turn: TurnOut
    scoreboard: ScoreboardOut
    shot_clock: ShotClockOut

    @classmethod
    def of(
        cls, version: int, state: MatchState, clock: int | None, deadline: datetime | None
    ) -> Snapshot:
        board = scoreboard(state)
        frame = state.frame
        live = not state.over and not frame.frame_over
        result = None
        if state.winner is not None:
            result = EndOut(termination=state.termination, winner=state.winner)
        return cls(
            version=version, status="finished" if state.over else "live",
            best_of=state.best_of, frames_to_win=frames_to_win(state.best_of),
            first_breaker=state.first_breaker, winner=state.winner, result=result,
            frames=[FrameRecordOut.of(f) for f in state.frames], frame=FrameOut.of(frame),
            turn=TurnOut(
                balls_on=sorted(referee.balls_on(frame.on, frame.object_balls)) if live else [],
                nominate=list(referee.nominations(frame)) if live else [],
            ),
            scoreboard=ScoreboardOut(
                scores=Scores.of(board.scores), frames=Scores.of(board.frames),
                frame_number=board.frame_number, striker=board.striker, to_act=board.to_act,
                on=board.on, brk=board.current_break, points_remaining=board.points_remaining,
                snookers_required=Scores.of(board.snookers_required),
                start=Scores.of(board.start),
            ),
            shot_clock=ShotClockOut(seconds=clock, deadline=deadline),
        )  # fmt: skip


class FoulOut(_Out):
    kind: str
    clause: str


class RulingOut(_Out):
    """The referee's ruling with what it left on the table (choices, free ball, touching
    ball, end of frame) and its words in order (`calls`)."""

    foul: bool
    fouls: list[FoulOut]
    penalty: int
    miss: bool
    points: int
    nominated: str | None
    respotted: dict[str, Point]
    choices: list[str]
    free_ball: bool
    touching: str | None
    warning: bool
    frame_over: bool
    winner: Seat | None
    respotted_black: bool
    calls: list[str]

    @classmethod
    def of(cls, outcome: Outcome) -> RulingOut:
        r, after = outcome.ruling, outcome.settled
        return cls(
            foul=r.foul, fouls=[FoulOut(kind=c.kind, clause=c.clause) for c in r.fouls],
            penalty=r.penalty, miss=r.miss, points=r.points, nominated=r.nominated,
            respotted=dict(r.respotted),
            choices=list(after.pending.options) if after.pending else [],
            free_ball=after.free_ball, touching=after.touching if not after.frame_over else None,
            warning=r.warning, frame_over=after.frame_over, winner=after.winner,
            respotted_black=r.respotted_black, calls=list(outcome.calls),
        )  # fmt: skip


class ShotConstants(_Out):
    R: float
    slide_decel: float
    roll_decel: float
    spin_decel: float


class ShotOut(_Out):
    """The physics of a stroke for the browser to animate: the rows are documented in
    docs/physics.md ("JSON form"), made by `ShotResult.to_json`, which the physics owns."""

    constants: ShotConstants
    duration: float
    truncated: bool
    first_contact: list[str]
    potted: list[str]
    off_table: list[str] = []
    positions: dict[str, Point]
    closest_approach: dict[str, float]
    events: list[list[float | str]]
    trajectories: dict[str, list[list[float]]]

    @classmethod
    def of(cls, result: ShotResult) -> ShotOut:
        return cls.model_validate(result.to_json())


class StartRequest(_Out):
    draw: Seat  # the server's draw for the first break
    # The match's handicap start (RULES.md §10); absent from matches made before starts.
    start: Scores = Field(default_factory=lambda: Scores(A=0, B=0))
    # A frame set up at a position, not racked (rules/setup.py: play from here, the position
    # editor), as `rules.state.FrameState.to_json` writes it; absent for a racked frame.
    position: dict[str, Any] | None = None

    @model_serializer(mode="wrap")
    def _racked_as_before(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A racked frame's request is written as it always was (no `position`)."""
        out: dict[str, Any] = handler(self)
        if out.get("position") is None:
            out.pop("position", None)
        return out

    @property
    def points(self) -> tuple[int, int]:
        return (self.start.A, self.start.B)


class StrokeRequest(_Out):
    angle: float
    speed: float
    side: float
    height: float
    nominated: str | None
    cue_ball: Point | None


class ChoiceRequest(_Out):
    option: str


class ScopeRequest(_Out):
    scope: Literal["frame", "match"]


class TossRequest(_Out):
    winner: Seat


class NoRequest(_Out):
    """The shot clock's expiry: nothing was asked."""


Request = StartRequest | StrokeRequest | ChoiceRequest | ScopeRequest | TossRequest | NoRequest
_REQUESTS: dict[type[Command], type[_Out]] = {
    Stroke: StrokeRequest, Choose: ChoiceRequest, Concede: ScopeRequest, Claim: ScopeRequest,
    Toss: TossRequest, ShotClockExpired: NoRequest,
}  # fmt: skip


def request_of(command: Command) -> Request:
    """The command as the event shows it: its stored form, typed."""
    made = _REQUESTS[type(command)].model_validate(commands.to_json(command))
    assert isinstance(made, Request)
    return made


# --- messages ----------------------------------------------------------------------------------
EventKind = Literal["start", "stroke", "choice", "toss", "concede", "claim", "shot_clock"]


class Event(_Out):
    """One state change. `snapshot` is the whole public state at `version`; `request` is the
    command as stored (the draw for `start`)."""

    type: Literal["event"] = "event"
    version: int
    kind: EventKind
    seat: Seat | None
    request: Request
    ruling: RulingOut | None
    shot: ShotOut | None
    frame_end: EndOut | None = None
    match_end: EndOut | None = None
    snapshot: Snapshot

    @classmethod
    def of(
        cls, kind: EventKind, seat: Player | None, request: Request, outcome: Outcome | None,
        snapshot: Snapshot,
    ) -> Event:  # fmt: skip
        return cls(
            version=snapshot.version, kind=kind, seat=seat, request=request,
            ruling=RulingOut.of(outcome) if outcome else None,
            shot=ShotOut.of(outcome.shot) if outcome and outcome.shot else None,
            frame_end=EndOut.of(outcome.frame_end) if outcome else None,
            match_end=EndOut.of(outcome.match_end) if outcome else None,
            snapshot=snapshot,
        )  # fmt: skip


# --- the referee's log of a frame --------------------------------------------------------------
class ShotSummary(_Out):
    """What the log tells of a stroke's physics: the first contact and the balls potted."""

    first_contact: list[str]
    potted: list[str]


class LogEntry(_Out):
    """One event as the referee's log tells it: the event without its trajectories and its
    snapshot, with the frame's score after it (the final score, when it ended the frame) and
    the striker's break after it (the break that ended the frame, on the frame's last pot).
    The browser makes the same entry from a live event (static/js/story.js, `entryOf`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    version: int
    kind: EventKind
    seat: Seat | None
    request: Request
    ruling: RulingOut | None
    shot: ShotSummary | None
    scores: Scores
    brk: int = Field(validation_alias="break", serialization_alias="break")
    frame_end: EndOut | None
    match_end: EndOut | None

    @classmethod
    def of(cls, event: StoredEvent, break_before: int) -> LogEntry:
        board = event.snapshot.scoreboard
        scores, brk = board.scores, board.brk
        if event.frame_end is not None and event.snapshot.frames:
            # Its snapshot shows the next frame racked: the frame's own figures instead.
            scores = event.snapshot.frames[-1].scores
            ruling = event.ruling
            brk = break_before + ruling.points if ruling is not None and not ruling.foul else 0
        shot = event.shot
        summary = None
        if shot is not None:
            summary = ShotSummary(first_contact=shot.first_contact, potted=shot.potted)
        return cls(
            version=event.version, kind=event.kind, seat=event.seat, request=event.request,
            ruling=event.ruling, shot=summary,
            scores=scores, brk=brk, frame_end=event.frame_end, match_end=event.match_end,
        )  # fmt: skip


class _Read(BaseModel):
    """Reading a stored event for the log: what it needs, the rest (trajectories, the
    balls, ...) skipped unread into Python."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class _StoredShot(_Read):
    first_contact: list[str]
    potted: list[str]


class _StoredBoard(_Read):
    scores: Scores
    brk: int = Field(validation_alias="break", serialization_alias="break")


class _StoredRecord(_Read):
    scores: Scores


class _StoredSnapshot(_Read):
    scoreboard: _StoredBoard
    frames: list[_StoredRecord]


class StoredEvent(_Read):
    """The parts of a stored event (`Event.text()`) the referee's log is made of."""

    version: int
    kind: EventKind
    seat: Seat | None
    request: Request
    ruling: RulingOut | None
    shot: _StoredShot | None
    frame_end: EndOut | None = None
    match_end: EndOut | None = None
    snapshot: _StoredSnapshot

    @classmethod
    def read(cls, text: str) -> StoredEvent:
        return cls.model_validate_json(text)


class EventSnapshot(_Read):
    """The snapshot an event carries (the public state after it), its stroke left unread:
    what a spectator greeted after it is shown (game/greetings.py)."""

    snapshot: Snapshot

    @classmethod
    def read(cls, text: str) -> Snapshot:
        return cls.model_validate_json(text).snapshot


class Log(_Out):
    """The referee's log of frame `frame`, in order: sent after a `welcome` that carries a
    snapshot (the frame being played, up to that snapshot's version) and in answer to a `log`
    request. `breaker` played the frame's opening stroke; `omitted` entries at its start were
    left out to keep the message small."""

    type: Literal["log"] = "log"
    frame: int
    breaker: Seat
    entries: list[LogEntry]
    omitted: int


class Welcome(_Out):
    """Answer to hello. `snapshot` is null when the events the browser missed follow instead."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    match: int
    seat: Seat | None
    players: dict[Seat, str]
    snapshot: Snapshot | None


class Ack(_Out):
    type: Literal["ack"] = "ack"
    client_id: str
    version: int
    duplicate: bool


class Error(_Out):
    type: Literal["error"] = "error"
    code: str
    message: str
    client_id: str | None = None


class SeatPresence(_Out):
    arrived: bool  # has come to the table at least once
    online: bool
    away_since: datetime | None
    # When the opponent may claim against this player (rules/presence.py); null while a
    # claim cannot come at all: the match has not started, this player is here, or the
    # opponent is away too.
    claim_from: datetime | None


class Presence(_Out):
    type: Literal["presence"] = "presence"
    players: dict[Seat, SeatPresence]
    spectators: int
    # The first moment both players were at the table together; null until then (no shot
    # clock, no claims; a player who came waits for the other).
    started: datetime | None
    # The match never started in time and was abandoned (no result): the page is over.
    abandoned: bool


class AimOut(_Out):
    """The striker's aim, relayed. `version`: the event version it was made at (the browser
    keeps an aim that comes while it still plays back the stroke that made that position,
    and draws it once the position is on screen); absent from a server before it."""

    type: Literal["aim"] = "aim"
    seat: Seat
    angle: float
    speed: float
    side: float
    height: float
    cue_ball: Point | None
    version: int | None = None


class Thinking(_Out):
    """The computer, to act at `version`, is choosing its stroke (until its first `aim` for
    that version, or a newer event)."""

    type: Literal["thinking"] = "thinking"
    seat: Seat
    version: int


class Clock(_Out):
    """The shot clock started at `version` without an event: the match started (both players
    at the table together: the clock waits for that). Also sent after a `welcome` without a
    snapshot."""

    type: Literal["clock"] = "clock"
    version: int
    deadline: datetime


ChatRoom = Literal["players", "spectators"]


class LineOut(_Out):
    """A chat line as a page shows it (docs/chat.md): `text` is the author's words, shown as
    text, never as markup; for a preset phrase `preset` is its key (rules.chat.PRESETS) and
    the page says it in its reader's language. `id` grows with each line stored (in a room,
    in the order said)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: int
    author: str
    # `text` on the wire (the model's text() is its JSON, as every message's): strong and mild
    # words masked (chat/words.py); `mild`: only the strong ones, for a reader who shows mild
    # words (chat.Preference), where that differs
    words: str = Field(validation_alias="text", serialization_alias="text")
    mild: str | None = None
    preset: str | None
    at: datetime


class Line(_Out):
    """A line said in one of the match's chat rooms, to the room's readers: in the players'
    room the two players; in the spectators' room those watching (and the players once the
    match is over)."""

    type: Literal["line"] = "line"
    room: ChatRoom
    line: LineOut


class Lines(_Out):
    """A room's last lines (at most rules.chat.HISTORY, oldest first), after every `welcome`
    (on arrival and on reconnect), one message per room the socket reads: a page replaces
    what it showed of that room with them, so a reconnecting page misses nothing."""

    type: Literal["lines"] = "lines"
    room: ChatRoom
    lines: list[LineOut]


class Deleted(_Out):
    """A moderator deleted these lines of `room` (docs/chat.md): every page showing them drops
    them, without a reload; they are never sent again."""

    type: Literal["deleted"] = "deleted"
    room: ChatRoom
    ids: list[int]


class TimedOut(_Out):
    """A moderator timed `member` out of the chat until `until` (from a line of `room`): every
    reader of the room is told, with no `reason`; the member's every page, of every room, is
    told with it (`room` null on a page of another room than the one it was given from), and
    their next line would be refused (`chat_timed_out`)."""

    type: Literal["timed_out"] = "timed_out"
    room: ChatRoom | None
    member: str
    until: datetime
    reason: str | None


class Struck(_Out):
    """Every line of `author` in `room` leaves the page at once: an organiser marked them a
    troll, so their lines, those written and those to come, are theirs alone. Never sent to
    the author's own sockets (their lines stay on their pages). Added in protocol 1: a page
    of an earlier release ignores it and drops the lines at its next welcome."""

    type: Literal["struck"] = "struck"
    room: ChatRoom
    author: str


class Pong(_Out):
    type: Literal["pong"] = "pong"
    version: int


SCHEMAS: dict[str, type[_Out]] = {
    "welcome": Welcome, "event": Event, "ack": Ack, "error": Error, "presence": Presence,
    "aim": AimOut, "thinking": Thinking, "pong": Pong, "clock": Clock, "log": Log,
    "line": Line, "lines": Lines, "deleted": Deleted, "timed_out": TimedOut,
    "struck": Struck,
}  # fmt: skip
