"""The ratings moved out of the ladder with their rows (ratings.0001, ladder.0009,
ratings.0002): every rated result, rating change and rating the ladder kept is the ratings'
after the migration, with the same ids and numbers, each result of its kind; new results
follow them; and migrating back gives the ladder its rows again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from game import service as game_service
from ratings import service
from ratings.models import RatedResult, Rating, RatingChange
from tests.ladder.helpers import concede

BEFORE = [
    ("ladder", "0008_ladder_shot_clock_always"),
    ("club", "0003_challenge_aim_guide"),  # (the club's rows as they are, for the ladder's)
    ("ratings", None),
]


def _migrate(targets):  # type: ignore[no-untyped-def]
    """Migrate to the targets; the models as they stood there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


@pytest.mark.django_db(transaction=True)
def test_rated_results_and_ratings_survive_the_move(members) -> None:
    ann, ben, cat, *_ = members
    friendly = game_service.create_match(ann, ben, 1, rated=True)
    ladder_match = game_service.create_match(cat, ann, 1, rated=True)
    unrated = game_service.create_match(ben, cat, 1, rated=True)
    old = _migrate(BEFORE)
    OldRating, OldResult, OldChange = (
        old.get_model("ladder", name) for name in ("Rating", "RatedResult", "RatingChange")
    )
    Ladder, LadderChallenge = (
        old.get_model("ladder", "Ladder"),
        old.get_model("ladder", "LadderChallenge"),
    )
    Challenge = old.get_model("club", "Challenge")
    ladder, _ = Ladder.objects.get_or_create(main=True, defaults={"name": "Club", "slug": "main"})
    t0 = timezone.now() - timedelta(days=1)
    club_row = Challenge.objects.create(
        kind="ladder", challenger_id=cat.pk, target_id=ann.pk, best_of=1, rated=True,
        status="accepted", created=t0, expires=t0, match_id=ladder_match.pk,
    )  # fmt: skip
    LadderChallenge.objects.create(
        ladder=ladder, challenge=club_row, challenger_id=cat.pk, defender_id=ann.pk,
        challenger_position=2, defender_position=1, status="settled", outcome="played",
        winner_id=cat.pk, match_id=ladder_match.pk, created=t0, answer_by=t0, play_by=t0,
        settled=t0,
    )  # fmt: skip
    results = [
        OldResult.objects.create(
            match_id=friendly.pk, player_a_id=ann.pk, player_b_id=ben.pk, score_a=1.0, at=t0,
            strokes_a=12, strokes_b=11,
        ),
        OldResult.objects.create(
            match_id=ladder_match.pk, player_a_id=cat.pk, player_b_id=ann.pk, score_a=1.0,
            at=t0 + timedelta(hours=1), ladder=ladder, strokes_a=15, strokes_b=10,
        ),
        OldResult.objects.create(
            match_id=unrated.pk, player_a_id=ben.pk, player_b_id=cat.pk, score_a=0.0,
            at=t0 + timedelta(hours=2), unrated="no_play", strokes_a=0, strokes_b=3,
        ),
    ]  # fmt: skip
    # The numbers the ladder's service stored (whatever they are, they must come through).
    changes = [
        (results[0], ann, 1500.0, 350.0, 1575.0, 290.3, 0.06),
        (results[0], ben, 1500.0, 350.0, 1337.7, 290.3, 0.06),
        (results[1], cat, 1500.0, 350.0, 1575.0, 290.3, 0.06),
        (results[1], ann, 1575.0, 290.3, 1480.2, 250.1, 0.059999),
    ]
    for result, player, before, before_rd, after, after_rd, vol in changes:
        OldChange.objects.create(
            result=result, player_id=player.pk, at=result.at, before=before,
            before_rd=before_rd, after=after, after_rd=after_rd, after_volatility=vol,
        )  # fmt: skip
    held = {ann: (1480.2, 250.1, 2), ben: (1337.7, 290.3, 1), cat: (1575.0, 290.3, 1)}
    for member, (rating, rd, played) in held.items():
        OldRating.objects.create(
            member_id=member.pk, rating=rating, rd=rd, played=played, updated=t0
        )

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    moved = {r.pk: r for r in RatedResult.objects.all()}
    assert set(moved) == {r.pk for r in results}
    assert [(moved[r.pk].match_id, moved[r.pk].kind, moved[r.pk].unrated) for r in results] == [
        (friendly.pk, "friendly", ""), (ladder_match.pk, "ladder", ""),
        (unrated.pk, "friendly", "no_play"),
    ]  # fmt: skip
    assert (moved[results[1].pk].strokes_a, moved[results[1].pk].at) == (15, results[1].at)
    assert [
        (c.result_id, c.player_id, c.before, c.before_rd, c.after, c.after_rd, c.after_volatility)
        for c in RatingChange.objects.order_by("pk")
    ] == [(r.pk, p.pk, *figures) for r, p, *figures in changes]
    assert {r.member: (r.rating, r.rd, r.played) for r in Rating.objects.all()} == held
    assert ann.rating.value().rating == 1480.2  # the member's own accessor, as the pages read it
    assert ladder_match.rated_result.kind == "ladder"
    # The tables are the ratings' own, and the next result follows the moved ones.
    tables = connection.introspection.table_names()
    assert {"ratings_rating", "ratings_ratedresult", "ratings_ratingchange"} <= set(tables)
    assert not {"ladder_rating", "ladder_ratedresult", "ladder_ratingchange"} & set(tables)
    later = concede(game_service.create_match(ann, cat, 1, rated=True), cat)
    assert RatedResult.objects.get(match=later).pk > max(moved)
    assert Rating.objects.get(member=ann).played == 3
    with transaction.atomic():
        service.recompute()  # the moved results replay through the club's rule
    assert Rating.objects.get(member=ben).played == 1

    # And back: the ladder's tables, its rows, and each ladder result's ladder again.
    old = _migrate(BEFORE)
    back = old.get_model("ladder", "RatedResult").objects
    assert back.get(pk=results[1].pk).ladder_id == ladder.pk
    assert back.get(pk=results[0].pk).ladder_id is None
    assert old.get_model("ladder", "RatingChange").objects.count() == len(changes) + 2
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
