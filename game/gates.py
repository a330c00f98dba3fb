"""Admission and flood control for every websocket app (the match's and the club's sockets).

- `GATE`: how many sockets each address, each room and each member holds in this process,
  against the caps; how fast each address opens new ones; addresses that flooded wait a while.
- `Bucket`: a token bucket, a socket's rate of messages.
- `Flood`: when a run of refused messages is a flood, and the socket is closed.
- `Rate`: the two together, shared by every socket of a seat or of a member.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from django.conf import settings

from game import clock


class Bucket:
    """Token bucket: `burst` messages at once, refilled at `rate` per second."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.stamp = burst, clock.monotonic()

    def take(self) -> bool:
        now = clock.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self) -> bool:
        return self.tokens + (clock.monotonic() - self.stamp) * self.rate >= self.burst


class Flood:
    """A run of refused messages with no pause as long as `gap` between them. A run that
    lasts `limit` seconds is a flood, at whatever rate it comes (a sender just over the rate
    is refused about once a second; one far over it, all the time); so is a run of `most`
    refusals, however short: a socket far over the rate is closed at once, not after seconds
    of messages that each cost a read and a dispatch."""

    def __init__(self, limit: float, most: int, gap: float = 2.0) -> None:
        self.limit, self.most, self.gap = limit, most, gap
        self.started: float | None = None
        self.last = 0.0
        self.count = 0

    def refused(self) -> tuple[bool, bool]:
        """Count a refusal: (the first of a run, the run is a flood)."""
        now = clock.monotonic()
        first = self.started is None or now - self.last > self.gap
        if first:
            self.started, self.count = now, 0
        self.last = now
        self.count += 1
        assert self.started is not None
        return first, now - self.started >= self.limit or self.count >= self.most


class Rate:
    """A rate of messages and its flood rule, shared by the sockets that spend it: a player's
    sockets at their table, or all of a member's sockets here. The run of refusals is
    counted where the rate is: sixty sockets each counting its own share of a member's
    refusals took 1,700 messages to reach a flood (issue 42)."""

    def __init__(self, burst: float, rate: float) -> None:
        conf = settings.SNOOKER
        self.bucket = Bucket(burst, rate)
        self.flood = Flood(conf["FLOOD_CLOSE_AFTER"], conf["FLOOD_CLOSE_REFUSED"])


class _Gate:
    """Sockets held here per address, per match and per member, against the caps; how fast
    each address opens new ones; addresses that flooded wait a while, longer each time they
    come back to flood again. Players are exempt from the crowd's caps (a crowd must never
    keep them from their own table), not from their own: a member holds at most
    `MAX_SOCKETS_PER_MEMBER` sockets here, and `MAX_MEMBER_SOCKETS_PER_MATCH` of them at one
    match, seated or not (issue 42: sixty sockets of one member at their own table slowed
    every other table)."""

    def __init__(self) -> None:
        self.addresses: Counter[str] = Counter()
        self.matches: Counter[int] = Counter()
        self.members_held: Counter[int] = Counter()  # member's id -> sockets
        self.members_at: Counter[tuple[int, int]] = Counter()  # (member's id, match) -> sockets
        self.seats: dict[tuple[int, int], Rate] = {}  # (player's id, match) -> their rate
        self.member_rates: dict[int, Rate] = {}  # member's id -> all their sockets' rate
        self.penalised: dict[str, float] = {}  # address -> until when it is turned away
        self.strikes: dict[str, tuple[int, float]] = {}  # address -> floods, last one's end
        self.knocks: dict[str, Bucket] = {}  # address -> its strangers' handshakes
        self.lookups: dict[str, Bucket] = {}  # address -> its session cookies read
        self.members: dict[str, float] = {}  # address -> when a member's session last came
        self.held_by: dict[int, set[Any]] = {}  # member's id -> their sockets here
        self.members_waiting: dict[int, float] = {}  # member's id -> until when turned away
        self.swept = clock.monotonic()

    def admit(
        self,
        address: str,
        match_id: int,
        seated: bool,
        cap: int | None = None,
        member: int | None = None,
    ) -> str | None:
        """Take a place, or say why not. A player gets one within their own caps: nobody
        sharing their address may keep them out. `match_id` is any room's key (the club's
        sockets use negative ones, with a `cap` of their own, and no cap per member but the
        site's); `member` is the member's id, None for a stranger."""
        conf = settings.SNOOKER
        if member is not None:
            until = self.members_waiting.get(member)
            if until is not None and until > clock.monotonic():
                return "your account flooded a match; wait a little"
            if self.members_held[member] >= conf["MAX_SOCKETS_PER_MEMBER"]:
                return "too many connections from your account; close some of your pages"
            per_match = conf["MAX_MEMBER_SOCKETS_PER_MATCH"]
            if match_id > 0 and self.members_at[member, match_id] >= per_match:
                return "too many connections from your account to this match"
        if not seated:
            if self.turned_away(address):
                return "this address flooded a match; wait a little"
            if self.addresses[address] >= conf["MAX_SOCKETS_PER_ADDRESS"]:
                return "too many connections from this address"
            if self.matches[match_id] >= (cap or conf["MAX_SOCKETS_PER_MATCH"]):
                return "this room has as many sockets as it can take"
        self.addresses[address] += 1
        self.matches[match_id] += 1
        if member is not None:
            self.members_held[member] += 1
            self.members_at[member, match_id] += 1
        return None

    def hold(self, member: int, socket: Any) -> None:
        """A member's socket let in (`admit`), to be closed with the others if one floods."""
        self.held_by.setdefault(member, set()).add(socket)

    def flooded_by(self, member: int, socket: Any) -> list[Any]:
        """One of a member's sockets was closed for flooding: one flood, one member. The
        member waits as a flooding address does (`FLOOD_PENALTY`, a random part longer or
        shorter), at their own tables too, and their other sockets here are returned, to be
        closed with it: sixty sockets of one member flooding one at a time cost the other
        tables for as long as the last of them took to reach its own flood (issue 42)."""
        wait = settings.SNOOKER["FLOOD_PENALTY"] * _JITTER.uniform(0.8, 1.2)
        self.members_waiting[member] = clock.monotonic() + wait
        return [s for s in self.held_by.get(member, ()) if s is not socket]

    def seat_rate(self, member: int, match_id: int, burst: float, rate: float) -> Rate:
        """The one rate of messages a player's sockets at their table share, however many
        they open (kept while any of them is held here)."""
        found = self.seats.get((member, match_id))
        if found is None:
            found = self.seats[member, match_id] = Rate(burst, rate)
        return found

    def member_rate(self, member: int) -> Rate:
        """The rate all of a member's sockets here share, at tables, watching, in the lobby
        (`MEMBER_RATE_BURST`, `MEMBER_RATE_PER_SECOND`: a player aiming at their table with
        the lobby and notices open spends a third of it); kept while any is held here."""
        found = self.member_rates.get(member)
        if found is None:
            conf = settings.SNOOKER
            rate = Rate(conf["MEMBER_RATE_BURST"], conf["MEMBER_RATE_PER_SECOND"])
            found = self.member_rates[member] = rate
        return found

    def knock(self, address: str) -> bool:
        """A stranger's handshake from `address`, within the address's rate or not. Each one
        let in costs a handshake, a consumer and a hello: a storm of them (a crowd of sockets
        coming back together) would hold up every match on the process."""
        return self._take(self.knocks, address)

    def look_up(self, address: str) -> bool:
        """A session cookie from `address` not yet known to this process may be read (one
        database read each): at the strangers' rate too, so that made-up cookies cost no more
        than strangers' handshakes."""
        return self._take(self.lookups, address)

    def _take(self, buckets: dict[str, Bucket], address: str) -> bool:
        now = clock.monotonic()
        if now - self.swept > 60:
            self._sweep(now)
        bucket = buckets.get(address)
        if bucket is None:
            bucket = buckets[address] = self._bucket()
        return bucket.take()

    @staticmethod
    def _bucket() -> Bucket:
        """An address's handshakes (or cookies read) without a session: a burst, then a rate."""
        conf = settings.SNOOKER
        return Bucket(conf["HANDSHAKE_BURST"], conf["HANDSHAKE_PER_SECOND"])

    def turned_away(self, address: str) -> bool:
        until = self.penalised.get(address)
        if until is not None and until <= clock.monotonic():
            del self.penalised[address]
            return False
        return until is not None

    def member_from(self, address: str) -> None:
        """A member's live session opened a socket from `address`: its connections are never
        closed at accept (`closed_at_accept`), where nothing yet says who is knocking."""
        now = self.members[address] = clock.monotonic()
        if now - self.swept > 60:
            self._sweep(now)  # (not only when strangers knock: members' addresses pile up too)

    def closed_at_accept(self, address: str) -> bool:
        """Close a connection from `address` as it is accepted, before a byte of it is read
        (snooker_site/accepts.py): the address is turned away for flooding and no member's
        socket has come from it for `MEMBER_KEPT` seconds. A member who shares the address (a
        clubhouse behind one NAT) is let on to the handshake, where their session exempts
        them as ever."""
        if not self.turned_away(address):
            return False
        seen = self.members.get(address)
        return seen is None or clock.monotonic() - seen > MEMBER_KEPT

    def penalise(self, address: str) -> None:
        """A socket from `address` was closed for flooding: its sockets that reconnect at once
        would cost a handshake and a hello each, so the address waits a while: twice as long
        as last time if it floods again soon after its wait (up to a limit), and a random
        part longer or shorter, so that addresses caught together do not come back together.
        Its other sockets flooding meanwhile are the same offence."""
        if self.turned_away(address):
            return
        conf, now = settings.SNOOKER, clock.monotonic()
        strikes, ended = self.strikes.get(address, (0, now))
        if now - ended > conf["FLOOD_FORGIVE"]:
            strikes = 0
        wait = min(conf["FLOOD_PENALTY"] * 2**strikes, conf["FLOOD_PENALTY_MAX"])
        until = now + wait * _JITTER.uniform(0.8, 1.2)
        self.penalised[address] = until
        self.strikes[address] = (strikes + 1, until)
        # Its burst is spent: back after its wait at the steady rate, a socket at a time, not
        # the burst's eight sockets flooding together (each costs a handshake, a greeting and
        # its flood before the address is turned away again).
        knocks = self.knocks[address] = self._bucket()
        knocks.tokens, knocks.stamp = 0.0, until

    def _sweep(self, now: float) -> None:
        """Forget what no longer limits anyone: full buckets, forgiven floods."""
        self.swept = now
        self.knocks = {a: b for a, b in self.knocks.items() if not b.full()}
        self.lookups = {a: b for a, b in self.lookups.items() if not b.full()}
        forgive = settings.SNOOKER["FLOOD_FORGIVE"]
        self.strikes = {a: s for a, s in self.strikes.items() if now - s[1] <= forgive}
        self.members = {a: t for a, t in self.members.items() if now - t <= MEMBER_KEPT}
        # A wait that is over and whose address never came back (a turned-away address is
        # forgotten when it knocks again, `turned_away`, not when it does not).
        self.penalised = {a: until for a, until in self.penalised.items() if until > now}
        self.members_waiting = {m: t for m, t in self.members_waiting.items() if t > now}

    def leave(
        self, address: str, match_id: int, member: int | None = None, socket: Any = None
    ) -> None:
        self.addresses[address] -= 1
        self.matches[match_id] -= 1
        if member is not None:
            held = self.held_by.get(member)
            if held is not None:
                held.discard(socket)
                if not held:
                    del self.held_by[member]
            self.members_held[member] -= 1
            self.members_at[member, match_id] -= 1
            if self.members_held[member] <= 0:
                del self.members_held[member]
                self.member_rates.pop(member, None)
            if self.members_at[member, match_id] <= 0:
                del self.members_at[member, match_id]
                self.seats.pop((member, match_id), None)
        if self.addresses[address] <= 0:
            del self.addresses[address]
        if self.matches[match_id] <= 0:
            del self.matches[match_id]

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]


# How long a member's socket from an address keeps that address's connections from being
# closed at accept: a member at a clubhouse whose other guest flooded keeps reconnecting and
# loading pages for the evening.
MEMBER_KEPT = 3600.0

_JITTER = random.Random()  # not a secret: only spreads out when penalties end


GATE = _Gate()
