"""The worker process's services, built once from the environment."""

from __future__ import annotations

from functools import cache

from service.config import Settings
from service.runtime.container import Services, build


@cache
def services() -> Services:
    return build(Settings.from_env())
