"""Fixtures of the service tests that talk to a real Redis."""

from __future__ import annotations

import pytest
from redis import Redis


@pytest.fixture
def redis(redis_url):
    client = Redis.from_url(redis_url)
    yield client
    client.close()
