"""The competitions' tests play members' matches as the ladder's do: the same members and
fresh process state."""

from tests.clock import set_clock  # noqa: F401  # a fixture
from tests.ladder.conftest import fresh_process_state, members  # noqa: F401  # fixtures
