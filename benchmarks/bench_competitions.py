"""The competitions at the issue's scale: `make bench-competitions` (docs/competitions.md,
"Scale").

    .venv/bin/python benchmarks/bench_competitions.py          # 128 double, 64 round robin
    .venv/bin/python benchmarks/bench_competitions.py --short  # CI: runs and prints
    make bench-competitions BENCH_ARGS="--double 64 --round-robin 32 --groups 4"

In one process, on a throwaway SQLite database (a temporary directory, migrated afresh), with
the in-memory channel layer: members with club ratings enter a double elimination of
`--double` entrants (the grand final with its reset) and a round robin of `--round-robin`
entrants in `--groups` groups, each drawn by `competitions.service.draw` and played to its
champion, every result at the table: both players strike once (so that the result is rated,
SNOOKER_RATED_MIN_STROKES=2 here), then the loser concedes through the match service
(`game.service.submit`, as the page sends it), whose end of match reaches the competition
through its fixture (`CompetitionFixtures.decided`: the bracket advanced or the table folded,
the next fixtures made, the result rated, the players told).

It measures, for each competition:

- its page (`/competitions/<id>/`) and the page's live part (`/competitions/<id>/live/`, read
  again by every open page when a result changes the competition), for a logged-in member, at
  the start (just drawn), the middle (half its matches decided) and the end (its champion
  known): the server's time (Django's test client, the whole middleware stack; the median of
  `--repeat` reads after one to warm), the bytes of the page (and gzipped, as nginx sends it)
  and the number of database queries;
- each result's update: the server's time of the concession (the whole of it: the match's end,
  the fixture, the competition, the rating) and of the competition's part alone
  (`CompetitionFixtures.decided`), and its queries: median, 90th percentile and maximum;
- the draw's time.

A table of the figures; the last line printed is one JSON object with all of them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@dataclass
class Page:
    competition: str
    stage: str  # start, middle, end
    page: str  # page, live
    ms: float
    cpu_ms: float
    queries: int
    bytes: int
    gzip_bytes: int


@dataclass
class Updates:
    competition: str
    results: int
    ms: list[float] = field(default_factory=list)  # the whole concession
    cpu_ms: list[float] = field(default_factory=list)  # its CPU time (the process's)
    part_ms: list[float] = field(default_factory=list)  # the competition's part alone
    queries: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "results": self.results,
            "ms": spread(self.ms),
            "cpu_ms": spread(self.cpu_ms),
            "competition_ms": spread(self.part_ms),
            "queries": spread([float(q) for q in self.queries]),
        }


def spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {"median": 0.0, "p90": 0.0, "max": 0.0}
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {"median": round(statistics.median(ordered), 2), "p90": round(p90, 2),
            "max": round(ordered[-1], 2)}  # fmt: skip


def django_setup(tmp: str) -> None:
    """Django on a fresh SQLite database in `tmp`, migrated; the in-memory channel layer."""
    os.environ.pop("REDIS_URL", None)
    os.environ |= {
        "DJANGO_SETTINGS_MODULE": "snooker_site.settings", "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(64), "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "SNOOKER_RATED_MIN_STROKES": "2",
    }  # fmt: skip
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", interactive=False, verbosity=0)
    if not (Path(settings.STATIC_ROOT) / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)  # the pages' {% static %}
    # No computer sits at these tables: its driver's listener is off (as in the tests).
    from game.signals import match_changed

    match_changed.disconnect(dispatch_uid="computer.driver")


class Bench:
    def __init__(self, repeat: int, seed: int) -> None:
        from django.contrib.auth.models import User
        from django.test import Client

        self.repeat = repeat
        self.rng = random.Random(seed)
        self.pages: list[Page] = []
        self.organiser = User.objects.create_user("organiser", password=None, is_staff=True)
        self.viewer = User.objects.create_user("viewer", password=None)
        self.client = Client()
        self.client.force_login(self.viewer)
        self.part_ms: list[float] = []
        self._time_the_competitions_part()

    def _time_the_competitions_part(self) -> None:
        """`CompetitionFixtures.decided` timed, each call (the competition's part of a result)."""
        from competitions.service import CompetitionFixtures

        decided = CompetitionFixtures.decided
        part_ms = self.part_ms

        def timed(owner: Any, *args: Any, **kwargs: Any) -> bool:
            t = time.perf_counter()
            try:
                return decided(owner, *args, **kwargs)
            finally:
                part_ms.append(1000 * (time.perf_counter() - t))

        CompetitionFixtures.decided = timed  # type: ignore[method-assign]

    def members(self, prefix: str, n: int) -> list[Any]:
        from django.contrib.auth.models import User

        from ratings.models import Rating

        users = User.objects.bulk_create(User(username=f"{prefix}{i:03d}") for i in range(n))
        Rating.objects.bulk_create(
            Rating(member=u, rating=self.rng.uniform(1200, 2000), rd=60.0) for u in users
        )
        return users

    def measure(self, name: str, stage: str, competition_id: int) -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        for page, url in (("page", f"/competitions/{competition_id}/"),
                          ("live", f"/competitions/{competition_id}/live/")):  # fmt: skip
            self.client.get(url)  # once to warm (a compiled template, the content types)
            times, cpu = [], []
            for _ in range(self.repeat):
                with CaptureQueriesContext(connection) as queries:
                    t, c = time.perf_counter(), time.process_time()
                    response = self.client.get(url)
                    times.append(1000 * (time.perf_counter() - t))
                    cpu.append(1000 * (time.process_time() - c))
                assert response.status_code == 200, response.status_code
            body = response.content
            self.pages.append(Page(
                name, stage, page, round(statistics.median(times), 1),
                round(statistics.median(cpu), 1), len(queries), len(body),
                len(gzip.compress(body)),
            ))  # fmt: skip

    def run(self, name: str, members: list[Any], **options: Any) -> dict[str, Any]:
        """Open, enter, draw and play out one competition; its figures."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        from django.utils import timezone

        from competitions import service
        from competitions.models import Competition, Decision, Pairing
        from game.models import Match
        from rules import bracket as rules
        from tests.ladder.helpers import concede, each_plays

        now = timezone.now()
        row = service.open_competition(
            self.organiser, name, now, now + timedelta_days(1), best_of=rules.BestOf(1),
            **options,
        )  # fmt: skip
        for m in members:
            service.enter(row.pk, m, now)
        t = time.perf_counter()
        service.draw(row.pk, self.organiser, now, seed=self.rng.getrandbits(48))
        draw_ms = 1000 * (time.perf_counter() - t)
        self.measure(name, "start", row.pk)
        updates = Updates(name, 0)
        # The middle: half its matches decided (a double elimination plays 2N − 2, a round
        # robin's fixtures are all made at the draw).
        if options.get("format") == "double":
            middle = len(members) - 1
        else:
            middle = Pairing.objects.filter(competition=row).count() // 2
        measured_middle = False
        while True:
            row.refresh_from_db()
            if row.status == Competition.Status.FINISHED:
                break
            to_play = list(
                Pairing.objects.filter(competition=row, fixture__status="to_play")
                .exclude(fixture__match=None)
                .values_list("fixture__match_id", flat=True)
            )
            assert to_play, f"{name}: nothing to play and no champion"
            for match_id in to_play:
                match = Match.objects.select_related("player_a", "player_b").get(pk=match_id)
                each_plays(match, prefix=f"m{match_id}-", strokes=1)
                loser = self.rng.choice((match.player_a, match.player_b))
                before = len(self.part_ms)
                with CaptureQueriesContext(connection) as queries:
                    t, c = time.perf_counter(), time.process_time()
                    concede(match, loser, client_id=f"c{match_id}", played=False)
                    updates.ms.append(1000 * (time.perf_counter() - t))
                    updates.cpu_ms.append(1000 * (time.process_time() - c))
                updates.queries.append(len(queries))
                updates.part_ms.append(sum(self.part_ms[before:]))
                updates.results += 1
                decided = Decision.objects.filter(competition=row).exclude(
                    how__in=("bye", "empty", "not_needed")
                )
                if not measured_middle and decided.count() >= middle:
                    self.measure(name, "middle", row.pk)
                    measured_middle = True
        self.measure(name, "end", row.pk)
        return {"entrants": len(members), "draw_ms": round(draw_ms, 1), **updates.summary()}


def timedelta_days(days: int) -> Any:
    from datetime import timedelta

    return timedelta(days=days)


def table(rows: list[list[Any]], head: list[str]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--double", type=int, default=128, help="double elimination's entrants")
    parser.add_argument("--round-robin", type=int, default=64, help="round robin's entrants")
    parser.add_argument("--groups", type=int, default=8, help="the round robin's groups")
    parser.add_argument("--repeat", type=int, default=5, help="reads of each page measured")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--short", action="store_true", help="8 and 8 in 2 groups, one read")
    args = parser.parse_args(argv)
    if args.short:
        args.double, args.round_robin, args.groups, args.repeat = 8, 8, 2, 1
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-competitions-") as tmp:
        django_setup(tmp)
        bench = Bench(args.repeat, args.seed)
        double_name = f"double elimination of {args.double}"
        rr_name = f"round robin of {args.round_robin} in {args.groups} groups"
        double = bench.run(double_name, bench.members("d", args.double), format="double")
        rr_members = bench.members("r", args.round_robin)
        rr = bench.run(rr_name, rr_members, format="round_robin", groups=args.groups)
        figures: dict[str, Any] = {"double": double, "round_robin": rr}
    print(f"bench-competitions: {double_name}; {rr_name} (best of 1, rated; SQLite, one process)")
    print()
    print(table(
        [[p.competition, p.stage, p.page, p.ms, p.cpu_ms, p.queries, p.bytes, p.gzip_bytes]
         for p in bench.pages],
        ["competition", "when", "page", "server ms", "CPU ms", "queries", "bytes", "gzipped"],
    ))  # fmt: skip
    print()
    print(table(
        [[name, f["results"], f["draw_ms"],
          f"{f['ms']['median']} / {f['ms']['p90']} / {f['ms']['max']}",
          f"{f['cpu_ms']['median']} / {f['cpu_ms']['p90']} / {f['cpu_ms']['max']}",
          f"{f['competition_ms']['median']} / {f['competition_ms']['p90']} / "
          f"{f['competition_ms']['max']}",
          f"{f['queries']['median']:.0f} / {f['queries']['p90']:.0f} / {f['queries']['max']:.0f}"]
         for name, f in ((double_name, figures["double"]), (rr_name, figures["round_robin"]))],
        ["competition", "results", "draw ms", "result ms (median / p90 / max)", "its CPU ms",
         "competition's part ms", "queries a result"],
    ))  # fmt: skip
    figures["pages"] = [asdict(p) for p in bench.pages]
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print()
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main()
