"""The chat's moderation beyond a single line (issue 41; docs/chat.md, "Moderation"): members'
reports, the organisers' answers to them, the troll switch and the panic switch. Every
moderator's action is a row of the audit log (`Action`), with who, when and why.

- **Reports.** Any member reports a line they can read, once, with a reason; at most
  `REPORTS_A_DAY` a day. A report stays open until a moderator acts on its line (deletes it,
  times its author out, marks them a troll) or dismisses it; acting closes every open report
  of that line.
- **Trolls.** A member marked a troll writes on, but their lines (those already written and
  those to come) are shown only to themselves, as lichess's shadow ban; unmarked, their new
  lines are everyone's again.
- **Panic.** For a few hours an organiser lets only members of some standing
  (`rules.chat.of_standing`) write in the lobby.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from django.db import IntegrityError, transaction

from accounts.visitors import Visitor
from chat import service
from chat.models import Action, Line, Panic, Report, Troll
from chat.service import ChatRefused
from rules import chat as rules

REPORTS_A_DAY: Final = 20
CONTEXT: Final = 4  # lines before and after a reported one, shown to the moderators
PANIC_HOURS: Final = (1, 3, 6)
ACTIONS: Final = ("hide", "15m", "1h", "1d", "troll", "dismiss")


def _why(reason: str) -> str:
    why = rules.clean(reason)
    if rules.check_text(why) is not None:
        raise ChatRefused("chat_bad_reason")
    return why


# --- reports -----------------------------------------------------------------------------------
def report(reporter: Visitor, line_id: int, reason: str, note: str, now: datetime) -> Report:
    """`reporter` reports a line they can read, or `ChatRefused`."""
    if reporter is None or not service.is_member(reporter) or reporter.pk is None:
        raise ChatRefused("chat_members_only", "members report lines")
    if reason not in Report.Reason.values:
        raise ChatRefused("chat_bad_reason")
    note = rules.clean(note)
    if len(note) > rules.MAX_LENGTH:
        raise ChatRefused("chat_too_long")
    line = Line.objects.filter(pk=line_id, hidden=False).first()
    if line is None or (line.shadow and line.author_id != reporter.pk):
        raise ChatRefused("chat_no_such_line")
    if line.author_id == reporter.pk:
        raise ChatRefused("chat_own_line", "one's own line is deleted, not reported")
    day = Report.objects.filter(reporter_id=reporter.pk, at__gt=now - timedelta(days=1))
    if day.count() >= REPORTS_A_DAY:
        raise ChatRefused("chat_flood", f"at most {REPORTS_A_DAY} reports a day")
    try:
        with transaction.atomic():
            return Report.objects.create(
                line=line, reporter_id=reporter.pk, reason=reason, note=note, at=now
            )
    except IntegrityError:
        raise ChatRefused("chat_already_reported") from None


@dataclass(frozen=True)
class Case:
    """An open report's line as the moderators see it: its reports and the room around it."""

    line: Line
    reports: list[Report]
    before: list[Line]
    after: list[Line]


def open_cases(most: int = 50) -> list[Case]:
    """The lines with open reports, the most reported first, then the oldest report first;
    each with CONTEXT lines before and after it in its room (deleted and trolls' included,
    marked)."""
    reports = list(
        Report.objects.filter(closed__isnull=True)
        .select_related("line__room", "line__author", "reporter")
        .order_by("at", "id")
    )
    by_line: dict[int, list[Report]] = {}
    for r in reports:
        by_line.setdefault(r.line_id, []).append(r)
    order = sorted(by_line.values(), key=lambda rs: (-len(rs), rs[0].at))[:most]
    cases = []
    for rs in order:
        line = rs[0].line
        room = Line.objects.filter(room_id=line.room_id).select_related("author")
        before = list(room.filter(id__lt=line.pk).order_by("-id")[:CONTEXT])[::-1]
        after = list(room.filter(id__gt=line.pk).order_by("id")[:CONTEXT])
        cases.append(Case(line, rs, before, after))
    return cases


def answer(moderator: Visitor, line_id: int, action: str, reason: str, now: datetime) -> None:
    """A moderator answers the reports of a line: deletes it (`hide`), times its author out
    (`15m`, `1h`, `1d`), marks them a troll, or dismisses the reports; every open report of
    the line is closed, and the action kept in the audit log."""
    if action not in ACTIONS:
        raise ChatRefused("chat_bad_action")
    line = Line.objects.select_related("room").filter(pk=line_id).first()
    if line is None:
        raise ChatRefused("chat_no_such_line")
    why = _why(reason)
    with transaction.atomic():
        if action == "hide":
            service.hide(moderator, line.pk, why, now)
        elif action == "troll":
            troll(moderator, line.author_id, why, now)
        elif action == "dismiss":
            by = service.moderator_id(moderator)
            Action.objects.create(
                kind=Action.Kind.DISMISS, by_id=by, member_id=line.author_id, line=line,
                reason=why, at=now,
            )  # fmt: skip
        else:
            service.time_out(moderator, line.author_id, action, why, now, where=line.room)
        Report.objects.filter(line=line, closed__isnull=True).update(
            closed=now, closed_by_id=service.moderator_id(moderator)
        )


# --- trolls ------------------------------------------------------------------------------------
def troll(moderator: Visitor, member_id: int, reason: str, now: datetime) -> None:
    """Mark a member a troll: their lines, written and to come, shown only to themselves;
    every open page of another's drops those written at once (`service.shadow`)."""
    by = service.moderator_id(moderator)
    why = _why(reason)
    with transaction.atomic():
        marked, _ = Troll.objects.select_related("member").update_or_create(
            member_id=member_id, defaults={"by_id": by, "reason": why, "at": now}
        )
        service.shadow(member_id, marked.member.get_username())
        Action.objects.create(
            kind=Action.Kind.TROLL, by_id=by, member_id=member_id, reason=why, at=now
        )


def untroll(moderator: Visitor, member_id: int, reason: str, now: datetime) -> None:
    """Take the mark away: the member's new lines are everyone's again (those written while
    marked, and before, stay their own: nothing comes back to a page, so nothing is told
    live); the lines said from now on reach every page as anyone's do."""
    by = service.moderator_id(moderator)
    why = _why(reason)
    with transaction.atomic():
        if not Troll.objects.filter(member_id=member_id).delete()[0]:
            raise ChatRefused("chat_not_a_troll")
        Action.objects.create(
            kind=Action.Kind.UNTROLL, by_id=by, member_id=member_id, reason=why, at=now
        )


# --- the panic switch ----------------------------------------------------------------------------
def panic(moderator: Visitor, hours: int, reason: str, now: datetime) -> Panic:
    """For `hours` (PANIC_HOURS), only members of some standing write in the lobby."""
    by = service.moderator_id(moderator)
    if hours not in PANIC_HOURS:
        raise ChatRefused("chat_bad_timeout")
    why = _why(reason)
    with transaction.atomic():
        switched = Panic.objects.create(
            by_id=by, reason=why, at=now, until=now + timedelta(hours=hours)
        )
        Action.objects.create(kind=Action.Kind.PANIC, by_id=by, member_id=by, reason=why, at=now)
    return switched


def calm(moderator: Visitor, now: datetime) -> None:
    """Turn the panic switch off now."""
    by = service.moderator_id(moderator)
    with transaction.atomic():
        if not Panic.objects.filter(until__gt=now).update(until=now):
            raise ChatRefused("chat_no_panic")
        Action.objects.create(kind=Action.Kind.CALM, by_id=by, member_id=by, reason="", at=now)


def panic_until(now: datetime) -> datetime | None:
    """When the panic switch goes off by itself, if it is on."""
    found = Panic.objects.filter(until__gt=now).order_by("-until").first()
    return found.until if found is not None else None
