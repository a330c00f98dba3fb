"""The referee's log of a frame (docs/protocol.md, "The referee's log of a frame"): built from
the frame's own stored events and kept in the cache, so that a crowd arriving at one version
makes one read per process."""

from __future__ import annotations

from django.core.cache import cache
from pydantic import ValidationError

from game.models import Match, MatchEvent
from game.protocol import server_out
from game.service import ServiceError
from rules import match as rules_match
from rules.match import match_from_json
from rules.state import Player

LOG_ENTRIES = 200  # a frame's log sends at most its last 200 events (a frame rarely has 100)
LOG_CACHE_SECONDS = 3600


def frame_log(match_id: int, number: int, upto: int, breaker: Player, final: bool) -> str:
    """The `log` message (as text) of frame `number` up to version `upto`, from the frame's
    own stored events only (indexed by frame). Kept in the cache: a finished frame's log for
    good (`final`), the frame being played under its version, so a crowd arriving at one
    version makes one read per process."""
    key = f"game:log:{match_id}:{number}:{'final' if final else upto}"
    found = cache.get(key)
    if isinstance(found, str):
        return found
    events = MatchEvent.objects.filter(match_id=match_id, frame=number, version__lte=upto)
    texts = list(events.order_by("-version").values_list("payload", flat=True)[: LOG_ENTRIES + 1])
    texts.reverse()
    # Over the cap, the event before the first one kept is read only for the break it left.
    earlier, kept = texts[: len(texts) - LOG_ENTRIES], texts[-LOG_ENTRIES:]
    omitted = events.count() - LOG_ENTRIES if earlier else 0
    break_before = 0
    for text in earlier:
        read = _read(text)
        break_before = read.snapshot.scoreboard.brk if read else 0
    entries: list[server_out.LogEntry] = []
    for text in kept:
        stored = _read(text)
        if stored is None:
            omitted += 1
            continue
        entries.append(server_out.LogEntry.of(stored, break_before))
        break_before = stored.snapshot.scoreboard.brk
    made = server_out.Log(frame=number, breaker=breaker, entries=entries, omitted=omitted).text()
    cache.set(key, made, LOG_CACHE_SECONDS)
    return made


def _read(text: str) -> server_out.StoredEvent | None:
    """A stored event as the log reads it, or None for a shape from before the log."""
    try:
        return server_out.StoredEvent.read(text)
    except ValidationError:
        return None


def current_log(row: Match) -> str:
    """The log of the frame being played (the last frame, once the match is over), up to
    the row's version."""
    state = match_from_json(row.state)
    number = max(1, state.frame_number)
    breaker = rules_match.breaker_of(state.first_breaker, number)
    return frame_log(row.pk, number, row.version, breaker, final=False)


def requested_log(match_id: int, number: int) -> str:
    """A browser asked for frame `number`'s log: any frame played so far."""
    row = Match.objects.only("version", "state").get(pk=match_id)
    state = match_from_json(row.state)
    if number > max(1, state.frame_number):
        raise ServiceError("no_such_frame", f"frame {number} has not been played")
    breaker = rules_match.breaker_of(state.first_breaker, number)
    final = number < state.frame_number or state.over
    return frame_log(match_id, number, row.version, breaker, final)
