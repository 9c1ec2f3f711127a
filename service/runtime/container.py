"""The composition root: builds the services from settings. The one place adapters meet."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from redis import Redis

from domain.common.search import Budget
from service.accounts import AccountService, AccountSettings
from service.accounts.players import PlayerService
from service.accounts.remembered import CredentialEpoch
from service.audit.service import AuditService
from service.audit.signing import KeyRing, Signer, load_signing_key
from service.clock import Clock, SystemClock
from service.config import Settings
from service.correspondence.service import ClockService
from service.games.messages import MessageService
from service.games.service import GameService
from service.games.states import StateCache
from service.games.store import Store
from service.job_queue import JobQueue, RQJobQueue
from service.lobby.ratings import RatingService
from service.lobby.service import LobbyService, check_rating_range
from service.mail.addresses import MailAccounts
from service.mail.compose import domain_of
from service.mail.content import Links
from service.mail.mailer import Mailer, MailSettings
from service.mail.tokens import Tokens, mail_key
from service.mail.transport import transport_for
from service.notifications.pubsub import RedisNotifier
from service.notifications.sealing import webhook_sealer
from service.notifications.service import NotificationService
from service.notifications.webhooks import WebhookService
from service.observability.metrics import metered_commands
from service.redis_wire import Wire
from service.runtime.embedded import default_data_dir
from service.runtime.health import HealthCheck


@dataclass
class Services:
    settings: Settings
    store: Store
    redis: Redis
    #: the hot path's Redis commands (service/redis_wire.py): the rate limits' script, the
    #: fan-out's ZADD, the wake-up calls
    wire: Wire
    jobs: JobQueue
    notifier: RedisNotifier
    players: PlayerService
    games: GameService
    messages: MessageService
    health: HealthCheck
    clocks: ClockService
    audit: AuditService
    keys: KeyRing
    mailer: Mailer
    notifications: NotificationService
    webhooks: WebhookService
    ratings: RatingService
    lobby: LobbyService
    #: the clock port every service here reads (and the edge, for what it stamps itself)
    clock: Clock
    accounts: AccountService | None = None

    def close(self) -> None:
        self.health.close()
        self.store.close()
        self.wire.close()
        self.redis.close()


def build(settings: Settings, clock: Clock | None = None, jobs: JobQueue | None = None) -> Services:
    store = Store(settings.database_url, min_size=settings.pool_min, max_size=settings.pool_max,
                  statement_timeout_ms=settings.statement_timeout_ms, pgbouncer=settings.pgbouncer,
                  pool_timeout=settings.pool_timeout_seconds)
    redis = Redis.from_url(settings.redis_url)
    wire = Wire(redis)
    clock = clock or SystemClock()
    jobs = jobs or RQJobQueue(redis, settings.queue_name, clock, wire)
    notifier = RedisNotifier(redis, wire)
    signing_key = load_signing_key(settings.signing_key, settings.signing_key_file)
    signer = Signer(signing_key)
    keys = KeyRing(store, signer, clock)
    keys.register()
    webhooks = WebhookService(store, jobs, webhook_sealer(settings.webhook_key, signing_key),
                              settings.webhook_allow_private, settings.webhook_retry_schedule,
                              settings.webhook_timeout_seconds, public_url=settings.public_url, clock=clock)
    notifications = NotificationService(store, jobs, redis, webhooks, settings.fanout_patience_seconds, clock,
                                        wire)
    budget = Budget(settings.ai_iterations, settings.ai_seconds, time.monotonic)
    games = GameService(store, StateCache(), clock, jobs, notifier, signer, ai_budget=budget,
                        notifications=notifications, seat_rule=check_rating_range)
    metered_commands(games)
    tokens = Tokens(mail_key(settings.mail_secret, bytes(signing_key)))
    mail_dir = Path(settings.mail_dir) if settings.mail_dir else default_data_dir() / "mail"
    mailer = Mailer(store, games, redis, jobs, transport_for(settings.smtp_url, mail_dir), tokens,
                    MailSettings(settings.mail_from,
                                 Links(settings.public_url,
                                       settings.mail_reply_domain or domain_of(settings.mail_from)),
                                 settings.mail_window_seconds, settings.digest_every_seconds))
    accounts = AccountService(store, jobs, mailer.transport, bytes(signing_key),
                              AccountSettings(settings.mail_from, settings.public_url), clock=clock,
                              epoch=CredentialEpoch(redis, settings.queue_name))
    ratings = RatingService(store)
    return Services(
        settings=settings,
        store=store,
        redis=redis,
        wire=wire,
        jobs=jobs,
        notifier=notifier,
        players=PlayerService(store, MailAccounts(tokens, jobs, settings.email_verification_ttl_seconds, clock), accounts),
        games=games,
        messages=MessageService(store, games, notifications),
        health=HealthCheck(store, settings.redis_url, settings.queue_name, settings.health_timeout_seconds),
        clocks=ClockService(store, games, clock, jobs, settings.vacation_days_per_year,
                            settings.timer_grace_seconds),
        audit=AuditService(store, games, keys),
        keys=keys,
        mailer=mailer,
        notifications=notifications,
        webhooks=webhooks,
        accounts=accounts,
        ratings=ratings,
        lobby=LobbyService(store, clock, ratings, notifier),
        clock=clock,
    )
