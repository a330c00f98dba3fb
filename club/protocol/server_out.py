"""What the server sends on a lobby or notices socket. Built here and nowhere else; a row is
made once per change and the same text goes to every lobby socket.

Every row carries its `version`: a browser keeps, per match and per challenge, the row with
the highest version it has seen, so an update that was computed before a newer welcome (or
that crossed another process's) never turns the clock back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from club.protocol import LOBBY_PROTOCOL
from game.protocol.server_out import LineOut

Seat = Literal["A", "B"]
ChallengeKind = Literal["direct", "open", "invitation", "rematch", "ladder"]
ChallengeStatus = Literal["open", "accepted", "declined", "withdrawn", "expired"]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    def text(self) -> str:
        return self.model_dump_json(by_alias=True)


class Pair(_Out):
    A: int
    B: int


class MatchRow(_Out):
    """A match as the lobby lists it."""

    id: int
    version: int
    # "abandoned": never started in time (club/noshows.py); it leaves the lobby's lists.
    status: Literal["live", "finished", "abandoned"]
    players: dict[Seat, str]
    best_of: int
    frames: Pair  # frames won
    scores: Pair  # points in the frame being played
    brk: int = Field(validation_alias="break", serialization_alias="break")  # the current break
    striker: Seat
    watching: int  # spectators' sockets
    rated: bool
    guest: bool
    practice: bool
    computer: bool = False  # against the computer: counted apart in the lobby, never listed
    # The handicap start of every frame, part of `scores` (RULES.md §10); 0–0 for none.
    start: Pair = Field(default_factory=lambda: Pair(A=0, B=0))


class ChallengeRow(_Out):
    id: int
    version: int
    kind: ChallengeKind
    status: ChallengeStatus
    challenger: str
    target: str | None  # null: anyone (open) or whoever follows the link (invitation)
    best_of: int
    shot_clock: int | None
    rated: bool
    guide: Literal["full", "short"]  # the aim guide of the match it makes (rules.challenges)
    expires: datetime
    match: int | None  # the match it made, once accepted
    rematch_of: int | None
    # Asked for a handicap (a friendly's: docs/handicaps.md), and the start it gives, the
    # challenger's as A and the other's as B (whatever their seats in a rematch): the match's
    # once made, else the one the two members' ratings give now; null when none was asked or
    # nobody has taken an open challenge yet.
    handicap: bool = False
    start: Pair | None = None


class You(_Out):
    name: str
    guest: bool


class Welcome(_Out):
    """Answer to hello. A lobby socket gets the lobby (`matches`, `open`); a member's socket
    gets their own challenges (`mine`: to them and from them) and live matches."""

    type: Literal["welcome"] = "welcome"
    protocol: int = LOBBY_PROTOCOL
    lobby: bool
    you: You | None
    matches: list[MatchRow]
    open: list[ChallengeRow]
    # Waiting challenges to and from the member, and their own accepted in the last minutes
    # whose table they have not come to (club/lobby.py, `just_accepted`): the page goes there.
    mine: list[ChallengeRow]
    my_matches: list[MatchRow]
    # Live matches against the computer, counted, not listed (club/lobby.py; lobby only: 0).
    computer_live: int = 0
    # Members online now (a greeted lobby or notices socket open), sorted, the first 200;
    # `online_count`: how many (lobby only: empty and 0).
    online: list[str] = []
    online_count: int = 0


class Update(_Out):
    """What changed in the lobby since the last update (coalesced: a few a second at most):
    matches (a finished one leaves the live list) and open challenges (one no longer open
    leaves the list)."""

    type: Literal["update"] = "update"
    matches: list[MatchRow]
    challenges: list[ChallengeRow]
    computer_live: int = 0  # as in the welcome, now
    # Who is online, as in the welcome, when it changed (null: as it was).
    online: list[str] | None = None
    online_count: int | None = None


class LadderChanged(_Out):
    """These ladders' standings or challenges changed (a join, a challenge made, answered or
    settled, a start time proposed or agreed): coalesced like the lobby's updates, sent to
    every lobby and notices socket. A page showing one of them reads it again from the
    server (its fragment: ladder/views.py, `ladder_live`)."""

    type: Literal["ladder"] = "ladder"
    ladders: list[int]  # the ladders' ids


class CompetitionChanged(_Out):
    """These competitions changed (an entry, the draw, a start time proposed or agreed, a
    match begun, a result or walkover, the next round's fixture made, the champion): told as
    `ladder` is, coalesced, to every lobby and notices socket. A page showing one of them reads
    it again from the server (its fragment: competitions/views.py, `competition_live`)."""

    type: Literal["competition"] = "competition"
    competitions: list[int]  # the competitions' ids


CompetitionNews = Literal["drawn", "opponent", "proposed", "through", "out", "champion"]


class CompetitionNotice(_Out):
    """News of a competition for one of its players, sent at once (after the change's commit)
    to their sockets (competitions/notices.py): it is `drawn`; their next match's `opponent`
    is known (`match`: its table); a start time is `proposed` (`by` whom, for `at`) for their
    match against `opponent`; a result sends them `through` (beating `opponent`), `out`
    (beaten by `opponent`, null when nobody won) or makes them the `champion`. `name` and
    `name_ru`: the competition's names (the page words it in its language)."""

    type: Literal["competition_notice"] = "competition_notice"
    competition: int
    name: str
    name_ru: str
    news: CompetitionNews
    opponent: str | None = None
    match: int | None = None
    by: str | None = None
    at: datetime | None = None


class Notice(_Out):
    """A challenge of yours, or to you, changed: made, accepted (its `match` is the table to
    go to), declined, withdrawn or expired. Sent at once to both parties' sockets."""

    type: Literal["notice"] = "notice"
    challenge: ChallengeRow


class Reminder(_Out):
    """Your ladder match's agreed start is near: sent once to both players' sockets, a quarter
    of an hour ahead (`rules.fixtures.REMIND_BEFORE`), by the ladder's settling job
    (ladder/jobs.py). `challenge`'s `match` is the table."""

    type: Literal["reminder"] = "reminder"
    challenge: ChallengeRow
    opponent: str
    at: datetime  # the agreed start


class Abandoned(_Out):
    """A match of yours was abandoned: the two players were never at the table together
    within the club's wait, or (`started`) both left a started friendly whose turn had lasted
    the club's stall time (club/noshows.py). No result; it counts for nothing. Sent at once
    to both players' sockets."""

    type: Literal["abandoned"] = "abandoned"
    match: int
    players: dict[Seat, str]
    best_of: int
    started: bool = False


class Error(_Out):
    type: Literal["error"] = "error"
    code: str
    message: str
    client_id: str | None = None  # the `say`'s, when it had one


class Pong(_Out):
    type: Literal["pong"] = "pong"


# The club's chat rooms (docs/chat.md): the match's chat messages (game/protocol/server_out.py),
# their room the page's: the lobby's (on the lobby socket), or a competition's or a ladder's
# (on the notices socket of its page, named in its hello: the page holds one room, so its
# kind says which). A chat line (`LineOut`) is the match's.
PageRoom = Literal["lobby", "competition", "ladder"]


class Line(_Out):
    """A line said in the page's room, to every socket carrying it (in every process) but
    those of a member who blocked its author; a troll's to the troll alone."""

    type: Literal["line"] = "line"
    room: PageRoom = "lobby"
    line: LineOut


class Lines(_Out):
    """The page room's last lines (at most rules.chat.HISTORY, oldest first), after every
    `welcome` on a socket carrying it: the page replaces what it showed."""

    type: Literal["lines"] = "lines"
    room: PageRoom = "lobby"
    lines: list[LineOut]


class Deleted(_Out):
    """A moderator deleted these lines of the room: every page showing them drops them."""

    type: Literal["deleted"] = "deleted"
    room: PageRoom = "lobby"
    ids: list[int]


class TimedOut(_Out):
    """A moderator timed `member` out of the chat until `until` (from a line of the page's
    room: every page of the room is told, without the `reason`); the member's own pages with
    a room are told wherever it was given, with the `reason` (`room` null when not from the
    page's own room)."""

    type: Literal["timed_out"] = "timed_out"
    room: PageRoom | None = "lobby"
    member: str
    until: datetime
    reason: str | None


class Struck(_Out):
    """Every line of `author` leaves the page's room at once (an organiser marked
    them a troll: their lines are theirs alone); never sent to the author's own sockets."""

    type: Literal["struck"] = "struck"
    room: PageRoom = "lobby"
    author: str


SCHEMAS: dict[str, type[_Out]] = {
    "welcome": Welcome, "update": Update, "notice": Notice, "reminder": Reminder,
    "abandoned": Abandoned, "error": Error, "pong": Pong, "ladder": LadderChanged,
    "competition": CompetitionChanged, "competition_notice": CompetitionNotice,
    "line": Line, "lines": Lines, "deleted": Deleted, "timed_out": TimedOut,
    "struck": Struck,
}  # fmt: skip
