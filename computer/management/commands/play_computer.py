"""`manage.py play_computer`: play the computer's tables in a process of its own.

For a club with several server processes and Redis (`SNOOKER_COMPUTER_PROCESS=true`): the
servers then only tell this process which of its matches moved, and it reads, thinks and
plays each of the computer's turns through the same service as a member's request
(computer/driver.py). It runs below the servers' priority, so a member's stroke never waits
for the computer's; its thinking runs lower still (computer/thinking.py). One is enough; a
second is harmless (a request it repeats is refused or answered with the stored event).
deploy/systemd/snooker-computer.service runs it.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from computer import driver

# Below the servers (0), above the thinking (19, the idle class): a stroke it has decided is
# played within its second even on a busy machine, but never before a member's.
NICENESS = 10


class Command(BaseCommand):
    help = "Play the computer's tables, which the servers leave to this process."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.COMPUTER["OWN_PROCESS"]:
            raise CommandError(
                "SNOOKER_COMPUTER_PROCESS is off: the servers play the computer's tables themselves"
            )
        os.nice(NICENESS)
        asyncio.run(driver.serve())
