"""A competition's news by e-mail too (docs/competitions.md, "Notices"), beside the notices
socket's: when the club sends mail (`EMAIL_HOST` set), to a member with an address who has not
turned it off (the competitions page's box, `Member.competition_mail`). The words are the
notices' own (club/text.py `catalog`, as the page's script words them), in English and then
in Russian: a member's language is their browser's, which the server does not keep.

Sent by one thread of its own once the transaction has committed: an SMTP server's seconds
hold no request, no draw of 128 entrants and never the players' database thread (a result
sends its players through or out). A mail that fails is one line in the log."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import close_old_connections
from django.urls import reverse
from django.utils import formats, timezone, translation

from club.protocol import server_out
from club.text import catalog

log = logging.getLogger("snooker.mail")
POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="competition-mail")
LANGUAGES = ("en", "ru")


def tell(notice: server_out.CompetitionNotice, member: int) -> None:
    """Queue `notice` for `member`'s mail (called once the news has committed)."""
    if settings.EMAIL_HOST:
        POOL.submit(_from_thread, notice, member)


def words(notice: server_out.CompetitionNotice, language: str, zone: str) -> str:
    """The notice in `language`, as the page's script says it (static/js/clubtext.js
    `competitionText`), its time in the member's `zone`."""
    with translation.override(language):
        text = catalog()
        ru = language == "ru" and notice.name_ru
        competition = notice.name_ru if ru else notice.name
        name = notice.opponent or ""
        key = f"competition_{notice.news}"
        if notice.news in ("through", "out") and not name:
            key += "_alone"
        time = ""
        if notice.at is not None:
            shown = timezone.localtime(notice.at, ZoneInfo(zone))
            time = f"{formats.date_format(shown, 'DATETIME_FORMAT')} ({zone})"
        said = text[key]
        assert isinstance(said, str)
        return said % {"competition": competition, "name": name, "by": notice.by, "time": time}


def _from_thread(notice: server_out.CompetitionNotice, member: int) -> None:
    """`send` on the mail's own thread, with a database connection of the thread's own."""
    close_old_connections()
    try:
        send(notice, member)
    finally:
        close_old_connections()


def send(notice: server_out.CompetitionNotice, member: int) -> None:
    """Mail `notice` to `member`, if their news goes by mail."""
    try:
        row = (
            get_user_model()
            .objects.filter(pk=member, member__competition_mail=True)
            .exclude(email="")
            .values_list("email", "username", "member__time_zone")
            .first()
        )
        if row is None:
            return
        address, me, zone = row
        if notice.news == "proposed" and notice.by == me:
            return  # their own proposal: the page told them
        zone = zone or settings.TIME_ZONE
        lines = [words(notice, language, zone) for language in LANGUAGES]
        host = next((h for h in settings.ALLOWED_HOSTS if h[:1] not in ("*", ".")), "")
        path = reverse("competition", args=[notice.competition])
        link = [f"https://{host}{path}"] if host else []
        body = "\n\n".join([*lines, *link])
        send_mail(lines[0], body, None, [address])
    except Exception:
        log.exception("competition mail to member %s not sent", member)
