"""A live `entrepot serve` (gunicorn + an RQ worker) on a free loopback port, per module."""

from __future__ import annotations

import pytest

from tests.e2e.live import free_port, running_server

__all__ = ["free_port", "server"]


@pytest.fixture(scope="module")
def server(settings, tmp_path_factory):
    with running_server(settings, tmp_path_factory.mktemp("serve"), "e2e") as base:
        yield base
