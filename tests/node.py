"""Node for the tests that run browser modules: CI installs it (.ci/run), so there a missing
node fails; elsewhere those tests skip."""

from __future__ import annotations

import shutil

from tests.needs import missing


def node_path() -> str:
    found = shutil.which("node")
    if found is None:
        missing("needs node (apt install nodejs)")
    return found
