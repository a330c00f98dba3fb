"""The club's service: challenge, answer, invite, offer a rematch, practise. No sockets here.

Each action is one transaction. The rules of who may do what are `rules/challenges.py`; this
module loads the rows, asks the rules, and writes. A challenge is answered under its row lock
(`select_for_update`) *and* only if it is still open at the version read (a conditional
update), so two tabs accepting at once make one match: the second is refused `answered`
(PostgreSQL: it waits for the lock, then sees the answer; SQLite: the write lock serialises
whole transactions, or the second is refused `busy`). The match is created in the same
transaction that marks the challenge accepted.

Every action returns `News`: what changed, for `club.process.announce` to tell the lobby and
both parties after commit. An answer is told to the rest of the site inside its transaction
(`club.signals.challenge_answered`): the ladder settles its challenges there.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.core import signing
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from accounts.names import invisible, lookalike_of, mixes_lookalike_scripts
from accounts.visitors import Visitor
from club import blocks
from club.lobby import is_guest
from club.models import Challenge, Guest
from club.signals import challenge_answered, challenges_changed
from game import service as game_service
from game.models import Match
from ratings import handicaps
from rules import challenges as rules
from rules.challenges import Answer, Format, Kind, Party, Status
from rules.errors import IllegalRequest, Refused
from rules.match import match_from_json
from rules.state import NO_START, FrameState


class ClubError(Refused):
    """A refused action; nothing was changed but what `news` says (an expiry found on the
    way). `code` is stable: the pages word it (club/text.py)."""

    def __init__(self, code: str, message: str, news: News | None = None) -> None:
        super().__init__(code, message)
        self.news = news or News()


@dataclass(frozen=True, slots=True)
class News:
    """What changed: challenges whose rows the lobby and both parties must hear of, and
    matches the lobby must show."""

    challenges: tuple[int, ...] = ()
    matches: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.challenges or self.matches)

    def __add__(self, other: News) -> News:
        return News(self.challenges + other.challenges, self.matches + other.matches)


@dataclass(frozen=True, slots=True)
class Done:
    challenge: Challenge | None
    match: Match | None = None
    news: News = field(default_factory=News)
    user: User | None = None  # the guest seated by an invitation


def party(user: AbstractBaseUser) -> Party:
    closed = not user.is_active or hasattr(user, "computer")  # the computer's user: computer/
    return Party(int(user.pk), guest=is_guest(user), closed=closed)


def _ttl() -> dict[Kind, timedelta]:
    conf = settings.CLUB
    return {
        Kind.DIRECT: timedelta(seconds=conf["CHALLENGE_TTL"]),
        Kind.OPEN: timedelta(seconds=conf["OPEN_CHALLENGE_TTL"]),
        Kind.INVITATION: timedelta(seconds=conf["INVITATION_TTL"]),
        Kind.REMATCH: timedelta(seconds=conf["REMATCH_TTL"]),
        # A ladder challenge waits for its ladder's answer time (passed in); this is a floor.
        Kind.LADDER: timedelta(seconds=conf["CHALLENGE_TTL"]),
    }


def view(row: Challenge) -> rules.Challenge:
    """The rules' view of a stored challenge."""
    target = row.target
    return rules.Challenge(
        kind=Kind(row.kind),
        challenger=party(row.challenger),
        target=party(target) if target is not None else None,
        format=Format(row.best_of, row.shot_clock, row.rated, row.guide),
        status=Status(row.status),
        expires=row.expires,
    )


def announce_on_commit(news: News) -> None:
    """Tell both parties of each challenge in `news`, and the lobby, once the transaction
    that changed them commits (at once outside one): the change announces itself, so no
    caller has to remember to, and a rolled-back change is told to nobody."""
    if news:
        transaction.on_commit(
            lambda: challenges_changed.send(sender=Challenge, news=news), robust=True
        )


def _refused(exc: IllegalRequest, news: News | None = None) -> ClubError:
    return ClubError(exc.code, exc.detail, news)


# --- making challenges ---------------------------------------------------------------------------
def challenge(challenger: User, target: User | None, fmt: Format, handicap: bool = False) -> Done:
    """Challenge a member, or anyone (target None: an open challenge). `handicap`: the match
    it makes gives the weaker member a start from the two ratings (ratings/handicaps.py)."""
    kind = Kind.DIRECT if target is not None else Kind.OPEN
    return _make(kind, challenger, target, fmt, handicap=handicap)


def invite(challenger: User, fmt: Format) -> Done:
    """An invitation: a link that seats whoever follows it first (a visitor as a guest)."""
    return _make(Kind.INVITATION, challenger, None, replace_rated(fmt, False))


def replace_rated(fmt: Format, rated: bool) -> Format:
    return Format(fmt.best_of, fmt.shot_clock, rated, fmt.guide)


def ladder_challenge(
    challenger: User, target: User, fmt: Format, expires: datetime, handicap: bool = False
) -> Done:
    """A ladder challenge (ladder/service.py makes it, inside its own transaction, and asks
    the ladder's rules first): a direct challenge in the ladder's format, always rated, that
    waits for an answer until the ladder's answer time is up; `handicap` if the ladder is."""
    return _make(Kind.LADDER, challenger, target, fmt, expires=expires, handicap=handicap)


def _make(
    kind: Kind,
    challenger: User,
    target: User | None,
    fmt: Format,
    rematch_of: Match | None = None,
    expires: datetime | None = None,
    handicap: bool = False,
) -> Done:
    now = timezone.now()
    try:
        rules.check_challenge(
            kind, party(challenger), party(target) if target is not None else None, fmt
        )
    except IllegalRequest as exc:
        raise _refused(exc) from None
    blockable = target is not None and kind in (Kind.DIRECT, Kind.REMATCH)
    if blockable and blocks.blocks(target.pk, challenger.pk):  # type: ignore[union-attr]
        # Never reaches them: no challenge, no notice (club/blocks.py).
        raise ClubError("blocked", "this member takes no challenges from you")
    conf = settings.CLUB
    try:
        with transaction.atomic():
            # A member's challenges are made one at a time: two tabs cannot pass the limits
            # together (PostgreSQL locks the member's row; SQLite's writer lock does as much).
            get_user_model().objects.select_for_update().filter(pk=challenger.pk).first()
            expired = _expire(Challenge.objects.filter(challenger=challenger), now)
            made = Challenge.objects.filter(
                challenger=challenger, created__gte=now - timedelta(hours=1)
            ).count()
            if made >= conf["CHALLENGES_PER_HOUR"]:
                raise ClubError(
                    "rate_limited", f"at most {conf['CHALLENGES_PER_HOUR']} challenges an hour"
                )
            waiting = Challenge.objects.filter(challenger=challenger, status=Status.OPEN).count()
            if waiting >= conf["PENDING_CHALLENGES"]:
                raise ClubError(
                    "too_many_waiting", f"at most {conf['PENDING_CHALLENGES']} challenges waiting"
                )
            row = Challenge.objects.create(
                kind=kind, challenger=challenger, target=target, best_of=fmt.best_of,
                shot_clock=fmt.shot_clock, rated=fmt.rated, created=now,
                guide=fmt.guide or settings.SNOOKER["AIM_GUIDE"],
                expires=expires or rules.expires_at(kind, now, _ttl()), rematch_of=rematch_of,
                handicap=handicap,
            )  # fmt: skip
            announce_on_commit(News((row.pk, *expired)))
    except IntegrityError:
        raise ClubError("already_challenged", "you have challenged this member already") from None
    except OperationalError:
        raise ClubError("busy", "the club is busy; try again") from None
    return Done(row, news=News((row.pk, *expired)))


def _expire(challenges: QuerySet[Challenge], now: datetime) -> tuple[int, ...]:
    """Mark as expired the open challenges among `challenges` that are past their time."""
    due = challenges.filter(status=Status.OPEN, expires__lte=now)
    ids = tuple(due.values_list("pk", flat=True))
    if ids:
        Challenge.objects.filter(pk__in=ids, status=Status.OPEN).update(
            status=Status.EXPIRED, version=F("version") + 1, answered=now
        )
    return ids


def expire_due(limit: int = 500) -> News:
    """Mark every open challenge past its time as expired (each process with club sockets runs
    this now and then: club/process.py); the ones this call marked are its news."""
    now = timezone.now()
    with transaction.atomic():
        due = Challenge.objects.select_for_update(skip_locked=True).filter(
            status=Status.OPEN, expires__lte=now
        )
        ids = tuple(due.values_list("pk", flat=True)[:limit])
        if ids:
            Challenge.objects.filter(pk__in=ids).update(
                status=Status.EXPIRED, version=F("version") + 1, answered=now
            )
        announce_on_commit(News(ids))
    return News(ids)


# --- answering -----------------------------------------------------------------------------------
# An invitation is taken only through its signed link (`accept_invitation`): its id is not
# a secret, so it is not accepted by id.
_BY_ID = (Kind.DIRECT, Kind.OPEN, Kind.REMATCH, Kind.LADDER)


def accept(user: User, challenge_id: int, rated: bool = True, later: bool = False) -> Done:
    """Accept a challenge: the match is created now, and both players go to the table. A
    challenge proposed as rated is rated only if the one who accepts agrees (`rated`); a
    ladder match is rated whatever they say. `later`: a ladder challenge accepted to be
    played at a time the two agree (the ladder holds the match's start until then)."""
    return _answer(user, challenge_id, "accept", _BY_ID, agreed=rated, later=later)


def decline(user: User, challenge_id: int) -> Done:
    return _answer(user, challenge_id, "decline")


def withdraw(user: User, challenge_id: int) -> Done:
    return _answer(user, challenge_id, "withdraw")


_ANSWERED = {"accept": Status.ACCEPTED, "decline": Status.DECLINED, "withdraw": Status.WITHDRAWN}


def _answer(
    user: User,
    challenge_id: int,
    answer: Answer,
    kinds: tuple[Kind, ...] = tuple(Kind),
    agreed: bool = True,
    later: bool = False,
) -> Done:
    now = timezone.now()
    try:
        with transaction.atomic():
            found = Challenge.objects.select_for_update().filter(pk=challenge_id)
            row = found.filter(kind__in=kinds).first()
            # Others' private challenges do not exist for them, whatever their state.
            if row is None or not rules.visible_to(view(row), party(user)):
                raise ClubError("not_found", "there is no such challenge")
            refusal = _check(row, party(user), answer, now)
            if refusal is None and answer == "accept" and blocks.blocks(row.challenger_id, user.pk):
                refusal = ClubError("blocked", "this member takes no challenges from you")
            if refusal is None:
                return _answered(row, user, answer, now, agreed, later)
    except OperationalError:
        raise ClubError("busy", "the club is busy; try again") from None
    raise refusal


def block(blocker: User, blocked: User) -> News:
    """`blocker` blocks `blocked` (club/blocks.py); the challenges from them waiting for the
    blocker are declined (each told to the blocked member as any decline)."""
    news = News()
    for challenge_id in blocks.block(blocker, blocked):
        with contextlib.suppress(ClubError):  # answered meanwhile
            news = news + decline(blocker, challenge_id).news
    return news


def _check(row: Challenge, who: Party, answer: Answer, now: datetime) -> ClubError | None:
    """The rules' refusal, if any (inside the caller's transaction). A challenge found past
    its time is marked expired on the way: the refusal carries that news, and the caller
    raises it after commit so the mark stays."""
    try:
        rules.check_answer(view(row), who, answer, now)
    except IllegalRequest as exc:
        if exc.code == "expired" and row.status == Status.OPEN:
            expired = News(_expire(Challenge.objects.filter(pk=row.pk), now))
            announce_on_commit(expired)
            return _refused(exc, expired)
        raise _refused(exc) from None
    return None


def _answered(
    row: Challenge, user: User, answer: Answer, now: datetime, agreed: bool = True,
    later: bool = False,
) -> Done:  # fmt: skip
    """Store the answer, if the challenge is still open at the version read (inside the
    caller's transaction); for an acceptance, create the match first. Receivers of
    `challenge_answered` act in the same transaction (a ladder challenge's answer)."""
    match = _create_match(row, user, agreed) if answer == "accept" else None
    updated = Challenge.objects.filter(pk=row.pk, status=Status.OPEN, version=row.version).update(
        status=_ANSWERED[answer], version=row.version + 1, answered=now, match=match
    )
    if not updated:
        raise ClubError("answered", "the challenge was answered first elsewhere")
    row.refresh_from_db()
    challenge_answered.send(
        Challenge, challenge=row, answer=answer, match=match, now=now,
        later=later and row.kind == Kind.LADDER,
    )  # fmt: skip
    news = News((row.pk,), (match.pk,) if match is not None else ())
    announce_on_commit(news)
    return Done(row, match, news)


def _create_match(row: Challenge, taker: User, agreed: bool = True) -> Match:
    """The match a challenge makes: the challenger is A; a rematch keeps the seats and the
    first break goes to the other player."""
    draw = None
    if row.kind == Kind.REMATCH:
        previous = row.rematch_of
        assert previous is not None
        a, b = previous.player_a, previous.player_b
        draw = rules.rematch_breaker(match_from_json(previous.state).first_breaker)
    else:
        a, b = row.challenger, taker
    pa, pb = party(a), party(b)
    rated = rules.rated(Kind(row.kind), pa, pb, wanted=row.rated, agreed=agreed)
    clock = rules.shot_clock_of(
        Format(row.best_of, row.shot_clock), rated, settings.CLUB["RATED_SHOT_CLOCK"]
    )
    # A handicap asked for: the start from the ratings as they stand now (a guest has none).
    handicapped = row.handicap and not (pa.guest or pb.guest)
    start = handicaps.start_between(a.pk, b.pk) if handicapped else NO_START
    try:
        return game_service.create_match(
            a, b, row.best_of, shot_clock=clock, draw=draw, guide=row.guide, rated=rated,
            guest=pa.guest or pb.guest, start=start,
        )  # fmt: skip
    except game_service.ServiceError as exc:
        raise ClubError(exc.code, exc.message) from None


# --- invitations and guests ----------------------------------------------------------------------
_SIGNER = signing.Signer(salt="club.invitation")
GUEST_NAME = re.compile(r"^\w[\w .'-]{0,19}$")


def invitation_token(challenge: Challenge) -> str:
    """The link's secret: the invitation's id, signed with the site's key (nothing stored;
    used once because the row is answered once)."""
    return _SIGNER.sign(str(challenge.pk))


def invitation_of(token: str) -> Challenge | None:
    try:
        pk = int(_SIGNER.unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return (
        Challenge.objects.filter(pk=pk, kind=Kind.INVITATION)
        .select_related("challenger", "match")
        .first()
    )


def clean_guest_name(name: str) -> str:
    """A guest's name as shown: NFKC, single spaces, 1–20 letters, digits, spaces, .'-"""
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not GUEST_NAME.match(name) or "_" in name or invisible(name):
        raise ClubError("bad_name", "a name of 1 to 20 letters, digits, spaces, . ' or -")
    # "(guest)" marks the name at the table, but a lobby row or a result quotes it short:
    # no guest may be called, or look like, a member.
    members = get_user_model().objects.filter(guest__isnull=True)
    if mixes_lookalike_scripts(name) or lookalike_of(
        name, list(members.values_list("username", flat=True))
    ):
        raise ClubError("member_name", "a member is called (or looks like) that")
    return name


def _new_guest(name: str) -> User:
    """A user for a visitor: no usable password, a name no member's can be ("(guest)"),
    flagged by a `Guest` row."""
    users = get_user_model().objects
    for attempt in range(20):
        suffix = f" {secrets.randbelow(10_000)}" if attempt else ""
        username = f"{name} (guest{suffix})"
        if users.filter(username=username).exists():
            continue
        try:
            with transaction.atomic():
                user = users.create_user(username, password=None)
        except IntegrityError:
            continue
        Guest.objects.create(user=user, name=name)
        return user
    raise ClubError("busy", "no free guest name; try another")


def visitor_guest(name: str) -> User:
    """A guest for a visitor who plays without an account and without an invitation (one
    click to play the computer): as an invitation's guest, named `name` (the page's word for
    a visitor, not typed, so not checked against the members' names: it carries "(guest)"
    and, after the first, a number). The caller limits how often an address may do this."""
    with transaction.atomic():
        return _new_guest(name)


def accept_invitation(token: str, visitor: Visitor, guest_name: str | None) -> Done:
    """Follow an invitation: a member plays as themselves, a visitor as a new guest named
    `guest_name`. The invitation is answered once; a second use is refused (`answered`)."""
    row = invitation_of(token)
    if row is None:
        raise ClubError("not_found", "this invitation link is not valid")
    member = visitor if isinstance(visitor, User) and visitor.is_authenticated else None
    name = None if member else clean_guest_name(guest_name or "")
    now = timezone.now()
    try:
        with transaction.atomic():
            locked = Challenge.objects.select_for_update().get(pk=row.pk)
            # Checked before a guest is made: a used or expired link seats nobody. (A guest
            # yet to be made is nobody's id.)
            refusal = _check(locked, party(member) if member else Party(0, True), "accept", now)
            if refusal is None:
                taker = member or _new_guest(name or "")
                done = _answered(locked, taker, "accept", now)
                if member is None:
                    Guest.objects.filter(user=taker).update(invitation=locked)
                return Done(done.challenge, done.match, done.news, None if member else taker)
    except OperationalError:
        raise ClubError("busy", "the club is busy; try again") from None
    raise refusal


# --- rematches and practice ----------------------------------------------------------------------
def offer_rematch(user: User, match_id: int) -> Done:
    """Offer the other player a rematch of a finished match (same format, seats kept, the
    first break to the other player). If they have offered one already, this accepts it.

    Both players offering at the same moment (two tabs, two processes) make one match: the
    finished match's row is locked first, by both — one lock, taken before any other, so the
    two never hold each other's rows (the challengers' rows, then the offer's, come after) —
    and the second offer, waiting for it, finds the first and accepts it."""
    refusal: ClubError | None = None
    try:
        with transaction.atomic():
            match = Match.objects.select_for_update(of=("self",)).filter(pk=match_id).first()
            if match is None:
                raise ClubError("not_found", "there is no such match")
            if match.practice:
                raise ClubError(
                    "practice", "a practice table is played again from the practice page"
                )
            if match.status != Match.Status.FINISHED:
                raise ClubError("match_not_over", "a rematch is offered once the match is over")
            seat = game_service.seat_of(match, user)
            if seat is None:
                raise ClubError("not_a_player", "only the two players may offer a rematch")
            other = match.player_b if seat == "A" else match.player_a
            if hasattr(other, "computer"):  # it never answers: played again from its page
                raise ClubError("computer", "the computer is played again from its page")
            now = timezone.now()
            offers = Challenge.objects.filter(rematch_of=match)
            expired = News(_expire(offers, now))
            announce_on_commit(expired)
            waiting = offers.filter(status=Status.OPEN).first()
            try:
                if waiting is not None and waiting.challenger_id == other.pk:
                    done = _answer(user, waiting.pk, "accept", (Kind.REMATCH,))
                    return Done(done.challenge, done.match, expired + done.news)
                if waiting is not None:
                    return Done(waiting, news=expired)  # offered already
                fmt = Format(match.best_of, match.shot_clock, match.rated, match.guide)
                # On the same terms: handicapped if the match was made by a challenge that was.
                asked = Challenge.objects.filter(match=match, handicap=True).exists()
                done = _make(Kind.REMATCH, user, other, fmt, rematch_of=match, handicap=asked)
                return Done(done.challenge, news=expired + done.news)
            except ClubError as exc:
                # The refusal is raised once the expiries found on the way are stored.
                refusal = ClubError(exc.code, exc.message, expired + exc.news)
    except OperationalError:
        raise ClubError("busy", "the club is busy; try again") from None
    assert refusal is not None
    raise refusal


def rematch_offer(match: Match) -> Challenge | None:
    """The latest rematch offer of a match, if any."""
    return (
        Challenge.objects.filter(rematch_of=match)
        .select_related("challenger", "target")
        .order_by("-pk")
        .first()
    )


def practise(
    user: User, best_of: int, shot_clock: int | None = None, guide: str | None = None,
    position: FrameState | None = None,
) -> Match:  # fmt: skip
    """A practice table: the member plays both sides (unrated, never on the ladder), through
    the same service as any match. Counted with the member's challenges an hour. With a
    `position`, one frame set up there (a replay's "play from here", rules/setup.py)."""
    if is_guest(user):
        raise ClubError("members_only", "practice tables are for members")
    try:
        rules.check_format(Format(best_of, shot_clock, guide=guide))
    except IllegalRequest as exc:
        raise _refused(exc) from None
    since = timezone.now() - timedelta(hours=1)
    tables = Match.objects.filter(player_a=user, practice=True, created__gte=since).count()
    if tables >= settings.CLUB["CHALLENGES_PER_HOUR"]:
        raise ClubError("rate_limited", "too many practice tables this hour")
    try:
        return game_service.create_match(
            user, user, best_of, shot_clock=shot_clock, practice=True, guide=guide,
            position=position,
        )  # fmt: skip
    except game_service.ServiceError as exc:
        raise ClubError(exc.code, exc.message) from None
