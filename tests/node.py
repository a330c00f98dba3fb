"""Node for the tests that run browser modules: CI installs it (.ci/run), so there a missing
node fails; elsewhere those tests skip."""

from __future__ import annotations

import os
import shutil

import pytest


def node_path() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing: .ci/run installs it")
        pytest.skip("needs node (apt install nodejs)")
    return found
