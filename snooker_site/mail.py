"""Mail with nowhere to go (no EMAIL_HOST) in production: said in one line, never printed.

Django's console backend writes the whole message to standard output, which under systemd is
the journal: a password-reset link there is a way into the member's account for anyone who
reads the logs (an organiser, a log shipper, a backup of /var/log). With DEBUG off and no
SMTP server, a message is dropped and one line says that one was not sent, with its subject
and no body, address or link; an organiser sets a password with `snooker-manage
changepassword NAME` instead. `make run` (DEBUG on) keeps the console backend, for a developer
following a link on their own machine.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend

log = logging.getLogger("snooker.mail")


class WithheldBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        for message in email_messages:
            log.warning(
                "mail not sent (no EMAIL_HOST set): %r to %d recipient(s)",
                message.subject,
                len(message.recipients()),
            )
        return 0
