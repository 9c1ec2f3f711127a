-- Entrepot schema v1. Events are the truth; everything else is a read model or a secret.

CREATE TABLE players (
    id              uuid PRIMARY KEY,
    name            text NOT NULL,
    email           text,
    token_hash      text NOT NULL UNIQUE,
    notify_by_email boolean NOT NULL DEFAULT true,
    vacation_until  timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE games (
    id              uuid PRIMARY KEY,
    title           text NOT NULL,
    rules_version   text NOT NULL,
    options         jsonb NOT NULL,
    status          text NOT NULL CHECK (status IN ('waiting', 'active', 'finished', 'aborted')),
    seat_count      integer NOT NULL CHECK (seat_count >= 1),
    version         integer NOT NULL DEFAULT 0 CHECK (version >= 0),
    to_act          integer[] NOT NULL DEFAULT '{}',
    deadline        timestamptz,
    result          jsonb,
    seed_commitment text NOT NULL,
    seed_source     text NOT NULL CHECK (seed_source IN ('server', 'client')),
    created_by      uuid REFERENCES players (id),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_status_updated ON games (status, updated_at DESC);
CREATE INDEX games_title ON games (title);

CREATE TABLE seats (
    game_id   uuid NOT NULL REFERENCES games (id),
    index     integer NOT NULL CHECK (index >= 0),
    player_id uuid REFERENCES players (id),
    ai        text CHECK (ai IN ('easy', 'normal', 'strong')),
    PRIMARY KEY (game_id, index),
    CHECK (player_id IS NULL OR ai IS NULL)
);
CREATE INDEX seats_player ON seats (player_id);

-- The seed stays here, never served, until the game ends (it is also in the first event).
CREATE TABLE game_secrets (
    game_id uuid PRIMARY KEY REFERENCES games (id),
    seed    text NOT NULL
);

-- The event stream. (game_id, seq) is the optimistic lock: two appends at the same
-- version collide on the primary key and exactly one wins.
CREATE TABLE events (
    game_id        uuid NOT NULL REFERENCES games (id),
    seq            integer NOT NULL CHECK (seq >= 1),
    type           text NOT NULL,
    schema_version integer NOT NULL,
    seat           integer,
    at             timestamptz NOT NULL,
    data           jsonb NOT NULL,
    prev_hash      text NOT NULL,
    hash           text NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();

-- Responses to mutating requests, by (scope, key): a retry gets the first answer.
CREATE TABLE idempotency_keys (
    scope        text NOT NULL,
    key          text NOT NULL,
    request_hash text NOT NULL,
    status       integer NOT NULL,
    body         jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);
