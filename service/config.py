"""Settings from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass

#: Seconds before each attempt: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
WEBHOOK_RETRY_SCHEDULE = (0.0, 5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0)


@dataclass(frozen=True)
class Settings:
    #: The application's role: SELECT/INSERT on events, never UPDATE/DELETE/ALTER.
    database_url: str
    redis_url: str
    #: The owner's role, which runs the migrations; None: DATABASE_URL's role owns the schema.
    migrate_database_url: str | None = None
    queue_name: str = "entrepot"
    pool_min: int = 2
    pool_max: int = 10
    #: A computer seat waiting longer than this is re-queued by the sweeper.
    sweep_after_seconds: float = 30.0
    max_body_bytes: int = 64 * 1024
    #: Every statement of the application's connections is cancelled after this.
    statement_timeout_ms: int = 5000
    #: Requests per client address and per bearer token (limits' notation, e.g. "20/second;600/minute").
    rate_limit_per_ip: str = "3000/minute"
    rate_limit_per_token: str = "1200/minute"
    #: How many proxies in front of the API set X-Forwarded-For (the address rate limits key on).
    trusted_proxies: int = 0
    #: /health says the workers are down when none has written its heartbeat for this long.
    worker_seen_within_seconds: float = 60.0
    #: The level of RQ's own lines in the workers' log: at INFO it writes two a job (taken,
    #: done), about a tenth of a worker's CPU under load; failures are logged at any level.
    job_log_level: str = "WARNING"
    #: How long /health waits for PostgreSQL and Redis to answer.
    health_timeout_seconds: float = 2.0
    #: "strong" computer seats: thinking time per move, and the search's iteration cap
    ai_seconds: float = 1.0
    ai_iterations: int = 20_000
    #: Vacation allowed per rolling year (correspondence play), in days.
    vacation_days_per_year: float = 30.0
    #: A table timer (reminder, deadline) this late is fired by the sweeper: its job was lost.
    timer_grace_seconds: float = 2.0
    #: the receipts' Ed25519 key: its seed (base64), or a file holding it (service/audit/signing.py)
    signing_key: str | None = None
    signing_key_file: str | None = None
    #: Idempotency keys (and the responses they replay) are forgotten after this.
    idempotency_ttl_seconds: float = 24 * 3600.0
    #: An invitation to a seat not accepted within this lapses (the seat opens).
    invitation_ttl_seconds: float = 7 * 24 * 3600.0
    #: a seek (a waiting game with an open seat) nobody filled is withdrawn after this
    seek_ttl_seconds: float = 7 * 24 * 3600.0
    #: outbound mail (service/mail/): smtp://user:pass@host:port (?starttls=1),
    #: smtp+starttls://, smtps://; None: mails are written as .eml files to ``mail_dir``
    smtp_url: str | None = None
    mail_from: str = "Entrepot <entrepot@localhost>"
    #: the domain of reply addresses (play+TOKEN@domain); None: the domain of ``mail_from``
    mail_reply_domain: str | None = None
    mail_dir: str | None = None
    #: links in mails (the web client, verification, unsubscribe) start with this
    public_url: str = "http://localhost:8000"
    #: at most one mail per player and game within this many seconds (later ones are folded)
    mail_window_seconds: float = 300.0
    digest_every_seconds: float = 24 * 3600.0
    email_verification_ttl_seconds: float = 2 * 24 * 3600.0
    #: the key of reply, unsubscribe and verification tokens; None: derived from the
    #: signing key (service/mail/tokens.py)
    mail_secret: str | None = None
    #: Webhooks may point at private, loopback or link-local addresses (tests, one machine).
    webhook_allow_private: bool = False
    #: Seconds before each delivery attempt of a webhook (the Standard Webhooks schedule:
    #: about a day in all); after the last one fails the delivery is failed.
    webhook_retry_schedule: tuple[float, ...] = WEBHOOK_RETRY_SCHEDULE
    #: A delivery attempt waits this long for the receiver's answer.
    webhook_timeout_seconds: float = 10.0
    #: The key that seals webhook secrets (32 bytes, standard base64); None: derived from
    #: the signing key (service/notifications/sealing.py).
    webhook_key: str | None = None
    #: A game whose notifications lag its version this long is fanned out by the sweeper.
    fanout_patience_seconds: float = 5.0
    #: sign-in, sign-in link and password reset attempts (limits' notation), per account
    #: (the address tried) and per client address; over them: 429 with Retry-After
    signin_limit_per_account: str = "10 per 15 minutes"
    signin_limit_per_address: str = "30 per minute;300 per hour"
    #: DATABASE_URL is a PgBouncer in transaction pooling mode: no prepared statements,
    #: no session settings (deploy/README.md, "PgBouncer").
    pgbouncer: bool = False
    #: A request waits this long for a database connection before its 503 (a failover).
    pool_timeout_seconds: float = 10.0

    @property
    def owner_database_url(self) -> str:
        return self.migrate_database_url or self.database_url

    @classmethod
    def from_env(cls) -> Settings:
        database_url = os.environ.get("DATABASE_URL")
        redis_url = os.environ.get("REDIS_URL")
        if not database_url or not redis_url:
            raise RuntimeError(
                "DATABASE_URL and REDIS_URL must be set (entrepot serve sets them for its "
                "embedded engines)"
            )
        env = os.environ.get
        return cls(
            database_url=database_url,
            redis_url=redis_url,
            migrate_database_url=env("ENTREPOT_MIGRATE_DATABASE_URL") or None,
            queue_name=env("ENTREPOT_QUEUE", "entrepot"),
            pool_max=int(env("ENTREPOT_POOL_MAX", "10")),
            sweep_after_seconds=float(env("ENTREPOT_SWEEP_AFTER", "30")),
            statement_timeout_ms=int(env("ENTREPOT_STATEMENT_TIMEOUT_MS", str(cls.statement_timeout_ms))),
            rate_limit_per_ip=env("ENTREPOT_RATE_LIMIT_PER_IP", cls.rate_limit_per_ip),
            rate_limit_per_token=env("ENTREPOT_RATE_LIMIT_PER_TOKEN", cls.rate_limit_per_token),
            trusted_proxies=int(env("ENTREPOT_TRUSTED_PROXIES", "0")),
            worker_seen_within_seconds=float(
                env("ENTREPOT_WORKER_SEEN_WITHIN", str(cls.worker_seen_within_seconds))),
            job_log_level=env("ENTREPOT_JOB_LOG_LEVEL", cls.job_log_level).upper(),
            ai_seconds=float(env("ENTREPOT_AI_SECONDS", "1.0")),
            ai_iterations=int(env("ENTREPOT_AI_ITERATIONS", "20000")),
            vacation_days_per_year=float(env("ENTREPOT_VACATION_DAYS", "30")),
            timer_grace_seconds=float(env("ENTREPOT_TIMER_GRACE", "2")),
            signing_key=env("ENTREPOT_SIGNING_KEY") or None,
            signing_key_file=env("ENTREPOT_SIGNING_KEY_FILE") or None,
            idempotency_ttl_seconds=float(env("ENTREPOT_IDEMPOTENCY_TTL", str(24 * 3600))),
            invitation_ttl_seconds=float(env("ENTREPOT_INVITATION_TTL", str(7 * 24 * 3600))),
            seek_ttl_seconds=float(env("ENTREPOT_SEEK_TTL", str(7 * 24 * 3600))),
            smtp_url=env("ENTREPOT_SMTP_URL") or None,
            mail_from=env("ENTREPOT_MAIL_FROM") or cls.mail_from,
            mail_reply_domain=env("ENTREPOT_MAIL_REPLY_DOMAIN") or None,
            mail_dir=env("ENTREPOT_MAIL_DIR") or None,
            public_url=(env("ENTREPOT_PUBLIC_URL") or cls.public_url).rstrip("/"),
            mail_window_seconds=float(env("ENTREPOT_MAIL_WINDOW", str(cls.mail_window_seconds))),
            digest_every_seconds=float(env("ENTREPOT_DIGEST_EVERY", str(cls.digest_every_seconds))),
            email_verification_ttl_seconds=float(
                env("ENTREPOT_EMAIL_VERIFICATION_TTL", str(cls.email_verification_ttl_seconds))),
            mail_secret=env("ENTREPOT_MAIL_SECRET") or None,
            webhook_allow_private=env("ENTREPOT_WEBHOOK_ALLOW_PRIVATE", "") in ("1", "true", "yes"),
            webhook_retry_schedule=_seconds_list(env("ENTREPOT_WEBHOOK_RETRY_SCHEDULE"), WEBHOOK_RETRY_SCHEDULE),
            webhook_timeout_seconds=float(env("ENTREPOT_WEBHOOK_TIMEOUT", "10")),
            webhook_key=env("ENTREPOT_WEBHOOK_KEY") or None,
            fanout_patience_seconds=float(env("ENTREPOT_FANOUT_PATIENCE", "5")),
            signin_limit_per_account=env("ENTREPOT_SIGNIN_LIMIT_PER_ACCOUNT", cls.signin_limit_per_account),
            signin_limit_per_address=env("ENTREPOT_SIGNIN_LIMIT_PER_ADDRESS", cls.signin_limit_per_address),
            pgbouncer=env("ENTREPOT_PGBOUNCER", "") in ("1", "true", "yes"),
            pool_timeout_seconds=float(env("ENTREPOT_POOL_TIMEOUT", "10")),
        )


def _seconds_list(text: str | None, default: tuple[float, ...]) -> tuple[float, ...]:
    """"0,5,300": seconds before each attempt."""
    if not text:
        return default
    return tuple(float(part) for part in text.split(",") if part.strip())
