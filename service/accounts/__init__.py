"""Accounts: how a player proves who they are.

- Passwords: argon2id (argon2-cffi's defaults, RFC 9106's second recommended profile). An
  unknown address costs the same argon2 work as a known one (a dummy hash is verified),
  so neither the answer nor its time tells whether an account exists.
- Cookie sessions for the web client: the cookie carries 256 random bits, the table their
  SHA-256; a CSRF token is an HMAC of the session under a server key (nothing to store).
- Bearer tokens: personal access tokens with scopes, and OAuth access tokens (same table,
  named by the client id). A revoked or expired token is refused at its next request, on
  every API process: a process remembers a token only under the credential epoch its
  requests read from Redis, which every revocation changes (service/accounts/remembered.py).
- Sign-in and reset links: the API records the request (the same row for any address) and
  a job mails the links to the verified players with that address. Links are one-time,
  expiring, and stored hashed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from service.accounts import records
from service.accounts.records import SessionRow, TokenRow
from service.accounts.remembered import CredentialEpoch, NoEpoch, RememberedTokens
from service.clock import Clock, SystemClock
from service.entropy import new_id, new_token, token_hash
from service.errors import (
    Forbidden,
    Invalid,
    InvalidToken,
    NotFound,
    TokenExpired,
    TokenUsed,
    Unauthorized,
)
from service.games.store import Player, Store
from service.job_queue import JobQueue
from service.mail.compose import Content, build
from service.mail.transport import Transport

log = logging.getLogger(__name__)

#: What a bearer token may be allowed: reading games and profiles, playing (every change
#: to games, seats, messages, vacation), notifications (webhooks, the player's stream,
#: notification settings) and the account itself (tokens, sessions, address, password).
SCOPES = ("read", "play", "notifications", "account")
ALL_SCOPES = frozenset(SCOPES)
MIN_PASSWORD = 8
MAX_PASSWORD = 256
ACCOUNT_MAIL = "workers.account_jobs.account_mail"
#: a session's last_seen_at (and a token's last_used_at) is written at most this often
TOUCH_EVERY = timedelta(minutes=1)


class InvalidCredentials(Unauthorized):
    code = "invalid_credentials"


class MissingScope(Forbidden):
    code = "missing_scope"


class CsrfRefused(Forbidden):
    code = "csrf_refused"


class WrongPassword(Invalid):
    code = "wrong_password"


@dataclass(frozen=True)
class Credential:
    """Who is calling and with what: ``kind`` is "session", "personal" or "oauth"."""

    player: Player
    kind: str
    id: str
    scopes: frozenset[str]


@dataclass(frozen=True)
class NewSession:
    id: str
    player_id: str
    secret: str  # the cookie's value, never stored
    csrf: str
    expires_at: datetime


@dataclass(frozen=True)
class NewToken:
    token: TokenRow
    secret: str  # shown once, never stored


@dataclass(frozen=True)
class AccountSettings:
    sender: str
    public_url: str
    session_ttl: timedelta = timedelta(days=30)
    link_ttl: timedelta = timedelta(minutes=30)
    code_ttl: timedelta = timedelta(minutes=2)
    oauth_token_ttl: timedelta = timedelta(days=365)


def check_password_policy(password: str, field: str = "password") -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
                      {field: [f"must have {MIN_PASSWORD} to {MAX_PASSWORD} characters"]})


def check_scopes(scopes: list[str]) -> list[str]:
    unknown = [s for s in scopes if s not in ALL_SCOPES]
    if unknown or not scopes:
        raise Invalid("unknown or missing scopes", {"scopes": [f"choose among {', '.join(SCOPES)}"]})
    return [s for s in SCOPES if s in scopes]  # canonical order, no duplicates


class AccountService:
    def __init__(self, store: Store, queue: JobQueue, transport: Transport, key: bytes,
                 settings: AccountSettings, hasher: PasswordHasher | None = None, clock: Clock | None = None,
                 epoch: CredentialEpoch | NoEpoch | None = None):
        self.store = store
        #: changed by every revocation and settings change: what this process remembers
        #: (``remembered``) is used only under the epoch it was looked up under
        self.epoch = epoch or NoEpoch()
        self.remembered = RememberedTokens()
        #: the clock port: every time these accounts store or compare
        self.clock = clock or SystemClock()
        self.queue = queue
        self.transport = transport
        self.settings = settings
        self._key = hmac.new(key, b"entrepot accounts v1", hashlib.sha256).digest()
        self.hasher = hasher or PasswordHasher()
        #: verified in place of a missing account's hash: the same work either way
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    # passwords ------------------------------------------------------------------------
    def hash_password(self, password: str) -> str:
        check_password_policy(password)
        return self.hasher.hash(password)

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def set_password(self, player: Player, password: str, current: str | None) -> None:
        """Add a password (a token-only player) or change it (``current`` must match)."""
        hashed = self.hash_password(password)
        with self.store.tx() as tx:
            stored = records.password_hash(tx, player.id)
            if stored is not None and (current is None or not self._verify(stored, current)):
                raise WrongPassword("the current password is wrong",
                                    {"current_password": ["does not match"]})
            records.set_password(tx, player.id, hashed, self.clock.now())

    # sessions -------------------------------------------------------------------------
    def sign_in(self, email: str, password: str, user_agent: str) -> NewSession:
        with self.store.read() as tx:
            candidates = records.password_candidates(tx, email)
        matched = None
        if not candidates:
            self._verify(self._dummy, password)  # the same work as for a known address
        for player_id, hashed in candidates:
            if self._verify(hashed, password):
                matched = player_id
                if self.hasher.check_needs_rehash(hashed):
                    with self.store.tx() as tx:
                        records.set_password(tx, player_id, self.hasher.hash(password), self.clock.now())
                break
        if matched is None:
            raise InvalidCredentials("the email address or the password is wrong")
        return self._new_session(matched, "password", user_agent)

    def sign_in_with_link(self, token: str, user_agent: str) -> NewSession:
        with self.store.tx() as tx:
            player_id = self._use_link(tx, "signin", token)
        return self._new_session(player_id, "link", user_agent)

    def sign_in_with_token(self, credential: Credential, user_agent: str) -> NewSession:
        """A session for the holder of an account-scoped token (a browser that kept one)."""
        if "account" not in credential.scopes:
            raise MissingScope("a session is opened only with a token that has the account scope")
        return self._new_session(credential.player.id, "token", user_agent)

    def reset_password(self, token: str, password: str, user_agent: str) -> NewSession:
        """Set the password a reset link was mailed for; every session ends, a new one opens."""
        hashed = self.hash_password(password)
        with self.store.tx() as tx:
            player_id = self._use_link(tx, "reset", token)
            now = self.clock.now()
            records.set_password(tx, player_id, hashed, now)
            records.end_sessions(tx, player_id, now)
        return self._new_session(player_id, "link", user_agent)

    def _use_link(self, tx, kind: str, token: str) -> str:
        row = records.use_link(tx, kind, token_hash(token), self.clock.now())
        if row is None:
            raise InvalidToken("this link is not valid", {"token": ["is not a valid link token"]})
        if row["used"]:
            raise TokenUsed("this link was used already: ask for a new one")
        if row["expired"]:
            raise TokenExpired("this link has expired: ask for a new one")
        records.mark_link_used(tx, row["id"], self.clock.now())
        return row["player_id"]

    def _new_session(self, player_id: str, method: str, user_agent: str) -> NewSession:
        secret = new_token()
        session_id = new_id()
        now = self.clock.now()
        expires_at = now + self.settings.session_ttl
        with self.store.tx() as tx:
            records.insert_session(tx, session_id, player_id, token_hash(secret), method, user_agent[:300],
                                   expires_at, now)
        return NewSession(session_id, player_id, secret, self.csrf_token(secret), expires_at)

    def csrf_token(self, session_secret: str) -> str:
        digest = hmac.new(self._key, b"csrf\x1f" + token_hash(session_secret).encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def csrf_matches(self, session_secret: str, presented: str | None) -> bool:
        return presented is not None and hmac.compare_digest(self.csrf_token(session_secret), presented)

    def session_credential(self, secret: str) -> Credential | None:
        """The live session this cookie names (None: unknown, ended or expired)."""
        with self.store.read() as tx:
            now = self.clock.now()
            found = records.session_identity(tx, token_hash(secret), now)
            if found is None:
                return None
            player, row = found
            if row["last_seen_at"] < now - TOUCH_EVERY:
                records.touch_session(tx, row["session_id"], now)
        return Credential(player, "session", row["session_id"], ALL_SCOPES)

    def sessions(self, player: Player) -> list[SessionRow]:
        with self.store.read() as tx:
            return records.sessions_of(tx, player.id, self.clock.now())

    def end_session(self, player: Player, session_id: str) -> None:
        with self.store.tx() as tx:
            if not _is_uuid(session_id) or not records.end_session(tx, player.id, session_id, self.clock.now()):
                raise NotFound("no such session")

    # tokens ---------------------------------------------------------------------------
    def first_token(self, tx, player_id: str, secret: str) -> None:
        """The sign-up token, as the player's first personal access token (every scope)."""
        records.insert_token(tx, new_id(), player_id, "personal", "sign-up token", None, token_hash(secret),
                             list(SCOPES), None, self.clock.now())

    def create_token(self, player: Player, name: str, scopes: list[str]) -> NewToken:
        secret = new_token()
        with self.store.tx() as tx:
            row = records.insert_token(tx, new_id(), player.id, "personal", name, None, token_hash(secret),
                                       check_scopes(scopes), None, self.clock.now())
        return NewToken(row, secret)

    def issue_oauth_token(self, player_id: str, client_id: str, scopes: list[str], secret: str) -> TokenRow:
        now = self.clock.now()
        expires_at = now + self.settings.oauth_token_ttl
        with self.store.tx() as tx:
            return records.insert_token(tx, new_id(), player_id, "oauth", client_id, client_id, token_hash(secret),
                                        check_scopes(scopes), expires_at, now)

    def tokens(self, player: Player) -> list[TokenRow]:
        with self.store.read() as tx:
            return records.tokens_of(tx, player.id, self.clock.now())

    def revoke_token(self, player: Player, token_id: str) -> None:
        # the epoch changes before the commit (refused if it cannot) and after it: no
        # process goes on trusting the token (service/accounts/remembered.py)
        self.epoch.change()
        with self.store.tx() as tx:
            if not _is_uuid(token_id) or not records.revoke_token(tx, player.id, token_id, self.clock.now()):
                raise NotFound("no such token")
        self.epoch.changed()

    def token_credential(self, secret: str, epoch: bytes | None = None) -> Credential:
        """The token's credential. ``epoch``: the credential epoch the request read (in
        the rate limits' round trip), under which this process may answer from memory;
        None (not read: Redis down) looks it up in PostgreSQL."""
        hashed = token_hash(secret)
        now = self.clock.now()
        if epoch == b"":
            # no epoch set (a new deployment, or Redis restarted empty): one is set now and
            # nothing is remembered under none, which a lost revocation's epoch would bring back
            self.epoch.establish()
            epoch = None
        if epoch is not None:
            remembered = self.remembered.get(hashed, epoch, now)
            if remembered is not None:
                return remembered
        with self.store.read() as tx:
            found = records.token_identity(tx, hashed, now)
            if found is None:
                raise Unauthorized("the bearer token is not valid (unknown, revoked or expired)")
            player, row = found
            used_at = row["last_used_at"]
            if used_at is None or used_at < now - TOUCH_EVERY:
                records.touch_token(tx, row["token_id"], now)
                used_at = now
        credential = Credential(player, row["kind"], row["token_id"], frozenset(row["scopes"]))
        if epoch is not None:
            # until its last use is due to be written again, or it expires
            until = used_at + TOUCH_EVERY
            expires_at = row["token_expires_at"]
            self.remembered.put(hashed, credential, epoch, until if expires_at is None else min(until, expires_at))
        return credential

    def oauth_token(self, secret: str) -> dict | None:
        with self.store.read() as tx:
            row = records.token_by_hash(tx, token_hash(secret))
        return row if row is not None and row["kind"] == "oauth" else None

    def revoke_oauth_token(self, token_id: str) -> None:
        self.epoch.change()  # before and after the commit, as revoke_token
        with self.store.tx() as tx:
            records.revoke_token_by_id(tx, token_id, self.clock.now())
        self.epoch.changed()

    # OAuth codes ----------------------------------------------------------------------
    def save_code(self, code: str, client_id: str, player_id: str, redirect_uri: str, scopes: list[str],
                  challenge: str, method: str) -> None:
        now = self.clock.now()
        with self.store.tx() as tx:
            records.insert_code(tx, token_hash(code), client_id, player_id, redirect_uri, check_scopes(scopes),
                                challenge, method, now + self.settings.code_ttl, now)

    def claim_code(self, code: str, client_id: str) -> dict | None:
        """The code's grant, once: it is marked used as it is read."""
        with self.store.tx() as tx:
            return records.claim_code(tx, token_hash(code), client_id, self.clock.now())

    # sign-in and reset links ----------------------------------------------------------
    def request_link(self, kind: str, email: str) -> None:
        """Record the request and queue its mail: the same work whoever the address is."""
        with self.store.tx() as tx:
            request_id = records.insert_request(tx, kind, email.strip(), self.clock.now())
        self.queue.enqueue_job(ACCOUNT_MAIL, (request_id,), f"account-mail-{request_id}")

    def sweep_requests(self, older_than_seconds: float = 30.0) -> int:
        """Queue again the jobs of requests still unhandled (Redis lost them)."""
        with self.store.read() as tx:
            lost = records.lost_requests(tx, older_than_seconds, self.settings.link_ttl.total_seconds(),
                                         self.clock.now())
        return self.queue.enqueue_missing([(ACCOUNT_MAIL, (i,), f"account-mail-{i}") for i in lost])

    def mail_links(self, request_id: int) -> int:
        """The job: a link for each verified player with the address (none for others)."""
        sent = []
        now = self.clock.now()
        with self.store.tx() as tx:
            request = records.claim_request(tx, request_id, now)
            if request is None:
                return 0
            for player in records.verified_players(tx, request["email"]):
                token = new_token()
                records.insert_link(tx, player["id"], request["kind"], token_hash(token),
                                    now + self.settings.link_ttl, now)
                sent.append((player, token))
        kind = request["kind"]
        for player, token in sent:
            key = f"account:{kind}:{request_id}:{player['id']}"
            self.transport.send(build(self.settings.sender, player["email"], key, self._link_mail(kind, player, token),
                                      None))
        return len(sent)

    def _link_mail(self, kind: str, player: dict, token: str) -> Content:
        minutes = int(self.settings.link_ttl.total_seconds() // 60)
        if kind == "signin":
            url = f"{self.settings.public_url}/#/signin/{token}"
            return Content("Your sign-in link", (
                f"Hello {player['name']},\n\nOpen this link to sign in to Entrepot as {player['name']}:\n\n{url}\n\n"
                f"It works once, within {minutes} minutes. If you did not ask for it, ignore this mail."))
        url = f"{self.settings.public_url}/#/reset/{token}"
        return Content("Choose a new password", (
            f"Hello {player['name']},\n\nOpen this link to choose a new Entrepot password for {player['name']}:\n\n"
            f"{url}\n\nIt works once, within {minutes} minutes, and signs you out everywhere else."
            " If you did not ask for it, ignore this mail: your password stays as it is."))


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


__all__ = ["ALL_SCOPES", "SCOPES", "AccountService", "AccountSettings", "Credential", "CsrfRefused",
           "InvalidCredentials", "MissingScope", "NewSession", "NewToken"]
