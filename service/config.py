"""Settings from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str
    queue_name: str = "entrepot"
    pool_min: int = 2
    pool_max: int = 10
    #: A computer seat waiting longer than this is re-queued by the sweeper.
    sweep_after_seconds: float = 30.0
    max_body_bytes: int = 64 * 1024
    #: "strong" computer seats: thinking time per move, and the search's iteration cap
    ai_seconds: float = 1.0
    ai_iterations: int = 20_000

    @classmethod
    def from_env(cls) -> Settings:
        database_url = os.environ.get("DATABASE_URL")
        redis_url = os.environ.get("REDIS_URL")
        if not database_url or not redis_url:
            raise RuntimeError(
                "DATABASE_URL and REDIS_URL must be set (entrepot serve sets them for its "
                "embedded engines)"
            )
        return cls(
            database_url=database_url,
            redis_url=redis_url,
            queue_name=os.environ.get("ENTREPOT_QUEUE", "entrepot"),
            pool_max=int(os.environ.get("ENTREPOT_POOL_MAX", "10")),
            sweep_after_seconds=float(os.environ.get("ENTREPOT_SWEEP_AFTER", "30")),
            ai_seconds=float(os.environ.get("ENTREPOT_AI_SECONDS", "1.0")),
            ai_iterations=int(os.environ.get("ENTREPOT_AI_ITERATIONS", "20000")),
        )
