"""The competitions' news for their players, on the club's notices (docs/competitions.md,
"Notices"): the draw, a next match's opponent, a proposed start time, a result that sends a
member through or out, the champion. Each is a `competition_notice` (club/protocol/server_out.py)
sent to the member's own group (every socket of theirs, in every process) once the transaction
that made the news commits; a change rolled back tells nobody. The page words it in its own
language (static/js/clubtext.js, `competitionText`); by e-mail too, when the club sends mail
(competitions/mail.py)."""

from __future__ import annotations

from datetime import datetime

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from club.protocol import server_out
from club.protocol.ipc import TextMessage
from competitions import mail
from competitions.models import Competition
from game.protocol.ipc import user_group


def tell(
    row: Competition, member: int, news: server_out.CompetitionNews, *,
    opponent: str | None = None, match: int | None = None, by: str | None = None,
    at: datetime | None = None,
) -> None:  # fmt: skip
    """Tell `member` this news of `row` once the transaction commits."""
    notice = server_out.CompetitionNotice(
        competition=row.pk, name=row.name, name_ru=row.name_ru, news=news, opponent=opponent,
        match=match, by=by, at=at,
    )  # fmt: skip
    text = notice.text()
    transaction.on_commit(lambda: _send(member, text), robust=True)
    transaction.on_commit(lambda: mail.tell(notice, member), robust=True)


def _send(member: int, text: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message: TextMessage = {"type": "club.notice", "text": text}
    async_to_sync(layer.group_send)(user_group(member), dict(message))
