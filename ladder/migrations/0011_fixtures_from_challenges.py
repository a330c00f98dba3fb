"""A fixture for every ladder challenge, with what the challenge kept of its match: the
players (the challenger first), the match, the window, the agreed start and the proposal, the
reminder, who waited and for how long alone, and how it ended. Back: the challenge's fields
from its fixture again, and the fixtures gone.

The fixture's status: a challenge waiting for its answer is *pending*, an accepted one *to
play*; a settled one is *decided* if its match was settled as played or by the default
(played, no_show, unfinished, unplayed), else *off* (declined, unanswered, withdrawn,
cancelled). The default's words (rules.fixtures.How) from the ladder's: "unfinished" with a
winner is by_state, without one level; "unplayed" is missed when both waited alone long
enough and nobody won, else fallback.
"""

from datetime import timedelta

from django.db import migrations

ALONE_LONG = timedelta(minutes=5)  # rules.fixtures.ALONE_LONG when this was written

MOVED = (
    "play_by", "start_at", "proposed_start", "proposed_by_id", "reminded", "match_id",
)  # fmt: skip
ROLES = (("challenger", "first"), ("defender", "second"))
SEEN = ("waited", "alone", "seen_alone")
DECIDED = {"played", "no_show", "unfinished", "unplayed"}
ABSENT = {"challenger": "first", "defender": "second", "both": "both", "neither": "neither"}


def _outcome(row) -> str:  # type: ignore[no-untyped-def]
    if row.outcome == "unfinished":
        return "by_state" if row.winner_id is not None else "level"
    if row.outcome == "unplayed":
        both = row.challenger_alone >= ALONE_LONG and row.defender_alone >= ALONE_LONG
        return "missed" if both and row.winner_id is None else "fallback"
    return row.outcome


def forward(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
    LadderChallenge = apps.get_model("ladder", "LadderChallenge")
    Fixture = apps.get_model("fixtures", "Fixture")
    for row in LadderChallenge.objects.order_by("pk").iterator():
        fields = {name: getattr(row, name) for name in MOVED}
        for role, seat in ROLES:
            for what in SEEN:
                fields[f"{seat}_{what}"] = getattr(row, f"{role}_{what}")
        if row.status == "waiting":
            status = "pending"
        elif row.status == "accepted":
            status = "to_play"
        elif row.outcome in DECIDED and row.match_id is not None:
            status = "decided"
            fields.update(
                outcome=_outcome(row), absent=ABSENT.get(row.absent, ""), flagged=row.flagged,
                decided=row.settled,
                winner_id=row.winner_id if row.outcome != "played" else None,
            )  # fmt: skip
        else:
            status = "off"
        fixture = Fixture.objects.create(
            kind="ladder", first_id=row.challenger_id, second_id=row.defender_id, status=status,
            **fields,
        )  # fmt: skip
        LadderChallenge.objects.filter(pk=row.pk).update(fixture=fixture)


def back(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
    LadderChallenge = apps.get_model("ladder", "LadderChallenge")
    Fixture = apps.get_model("fixtures", "Fixture")
    for row in LadderChallenge.objects.filter(fixture__isnull=False).order_by("pk").iterator():
        fixture = Fixture.objects.get(pk=row.fixture_id)
        fields = {name: getattr(fixture, name) for name in MOVED}
        for role, seat in ROLES:
            for what in SEEN:
                fields[f"{role}_{what}"] = getattr(fixture, f"{seat}_{what}")
        LadderChallenge.objects.filter(pk=row.pk).update(fixture=None, **fields)
    Fixture.objects.filter(kind="ladder").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0010_challenge_fixture"),
    ]

    operations = [migrations.RunPython(forward, back)]
