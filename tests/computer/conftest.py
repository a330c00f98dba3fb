from tests.clock import set_clock
from tests.game.conftest import close_clients, fresh_process_state

__all__ = ["close_clients", "fresh_process_state", "set_clock"]
