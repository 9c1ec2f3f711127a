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
    #: Vacation allowed per rolling year (correspondence play), in days.
    vacation_days_per_year: float = 30.0
    #: A table timer (reminder, deadline) this late is fired by the sweeper: its job was lost.
    timer_grace_seconds: float = 2.0
    #: the receipts' Ed25519 key: its seed (base64), or a file holding it (service/signing.py)
    signing_key: str | None = None
    signing_key_file: str | None = None
    #: Idempotency keys (and the responses they replay) are forgotten after this.
    idempotency_ttl_seconds: float = 24 * 3600.0
    #: An invitation to a seat not accepted within this lapses (the seat opens).
    invitation_ttl_seconds: float = 7 * 24 * 3600.0

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
            vacation_days_per_year=float(os.environ.get("ENTREPOT_VACATION_DAYS", "30")),
            timer_grace_seconds=float(os.environ.get("ENTREPOT_TIMER_GRACE", "2")),
            signing_key=os.environ.get("ENTREPOT_SIGNING_KEY") or None,
            signing_key_file=os.environ.get("ENTREPOT_SIGNING_KEY_FILE") or None,
            idempotency_ttl_seconds=float(os.environ.get("ENTREPOT_IDEMPOTENCY_TTL", str(24 * 3600))),
            invitation_ttl_seconds=float(os.environ.get("ENTREPOT_INVITATION_TTL", str(7 * 24 * 3600))),
        )
