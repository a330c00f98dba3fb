"""A test that needs something this machine may lack: in CI (`CI` set, as .ci/run sets it),
where .ci/run installs or starts everything the suite needs, a missing part fails the test;
on a newcomer's machine it skips, saying what to install. Nothing skips quietly in CI."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def missing(why: str) -> NoReturn:
    """Fail in CI, skip elsewhere."""
    if in_ci():
        pytest.fail(f"{why} (CI provides it: .ci/run)")
    pytest.skip(why)
