"""Shared fixtures. Django settings come from pyproject.toml (pytest-django)."""

import os

import pytest

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def redis_url() -> str:
    """REDIS_URL, or the local Redis every machine of this kind runs."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
