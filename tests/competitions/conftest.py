"""The competitions' tests play members' matches as the ladder's do: the same members and
fresh process state."""

from collections.abc import Iterator

import pytest

from tests.clock import set_clock  # noqa: F401  # a fixture
from tests.ladder.conftest import fresh_process_state, members  # noqa: F401  # fixtures


@pytest.fixture(autouse=True)
def _no_computer_listening() -> Iterator[None]:
    """No computer sits at a competition's table: its driver's listener is off here. On a
    match's first event it reads, detached on channels' shared database thread, whether the
    match has a computer seat; on SQLite's shared in-memory database that read, racing the
    next stroke's write, made the stroke fail as "busy" now and then (competitions play many
    new matches one after another)."""
    from computer import driver
    from game.signals import match_changed

    match_changed.disconnect(dispatch_uid="computer.driver")
    yield
    driver.listen()
