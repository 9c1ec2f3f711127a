-- Accounts (issue 28): passwords, cookie sessions, personal access tokens with scopes,
-- sign-in and reset links, OAuth 2.0 codes. Every secret is kept as a hash only: argon2id
-- for passwords, SHA-256 for the random 256-bit tokens (sessions, links, codes, tokens).

ALTER TABLE players ADD COLUMN password_hash text;          -- argon2id (PHC string); null: no password
ALTER TABLE players ADD COLUMN password_changed_at timestamptz;
CREATE INDEX players_email_lower ON players (lower(email));

-- Bearer tokens: personal access tokens (named by their player) and OAuth access tokens
-- (named by the client id that asked for them). players.token_hash stays as it was (the
-- sign-up token's hash) but no longer authenticates: this table does, so revoking works.
CREATE TABLE access_tokens (
    id           uuid PRIMARY KEY,
    player_id    uuid NOT NULL REFERENCES players (id),
    kind         text NOT NULL CHECK (kind IN ('personal', 'oauth')),
    name         text NOT NULL,
    client_id    text,
    token_hash   text NOT NULL UNIQUE,
    scopes       text[] NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    expires_at   timestamptz,
    revoked_at   timestamptz
);
CREATE INDEX access_tokens_player ON access_tokens (player_id, created_at);

-- Every existing player's token becomes their first personal access token, with every scope.
INSERT INTO access_tokens (id, player_id, kind, name, token_hash, scopes, created_at)
SELECT gen_random_uuid(), id, 'personal', 'sign-up token', token_hash,
       ARRAY['read', 'play', 'notifications', 'account'], created_at
  FROM players;

-- Cookie sessions of the web client: the cookie holds the secret, this row its SHA-256.
CREATE TABLE sessions (
    id           uuid PRIMARY KEY,
    player_id    uuid NOT NULL REFERENCES players (id),
    token_hash   text NOT NULL UNIQUE,
    method       text NOT NULL CHECK (method IN ('password', 'link', 'token')),
    user_agent   text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    ended_at     timestamptz
);
CREATE INDEX sessions_player ON sessions (player_id, created_at);

-- A request for a sign-in or reset link, as the API received it: the same row for a known
-- and an unknown address (the worker finds out which, so the answer cannot tell).
CREATE TABLE account_requests (
    id          bigserial PRIMARY KEY,
    kind        text NOT NULL CHECK (kind IN ('signin', 'reset')),
    email       text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    handled_at  timestamptz
);

-- The links those requests mailed: one-time, expiring.
CREATE TABLE account_links (
    id          bigserial PRIMARY KEY,
    player_id   uuid NOT NULL REFERENCES players (id),
    kind        text NOT NULL CHECK (kind IN ('signin', 'reset')),
    token_hash  text NOT NULL UNIQUE,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- OAuth 2.0 authorization codes (RFC 6749 4.1, PKCE RFC 7636): one-time, short-lived.
CREATE TABLE oauth_codes (
    code_hash             text PRIMARY KEY,
    client_id             text NOT NULL,
    player_id             uuid NOT NULL REFERENCES players (id),
    redirect_uri          text NOT NULL,
    scopes                text[] NOT NULL,
    code_challenge        text NOT NULL,
    code_challenge_method text NOT NULL,
    expires_at            timestamptz NOT NULL,
    used_at               timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now()
);
