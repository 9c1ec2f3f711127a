-- Mail: address verification, reply tokens, and the record of every mail sent.
-- No token is stored in clear: each is recomputed from its row and the server's mail key
-- (service/mail/tokens.py), and only its SHA-256 is kept to recognise it.

CREATE TABLE email_verifications (
    id          bigserial PRIMARY KEY,
    player_id   uuid NOT NULL REFERENCES players (id),
    email       text NOT NULL,
    token_hash  text NOT NULL UNIQUE,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_verifications_player ON email_verifications (player_id, id);

-- A "your turn" mail's Reply-To carries one: bound to game, seat, version and player,
-- used once (used_at is set when the move it carried was played).
CREATE TABLE reply_tokens (
    id          bigserial PRIMARY KEY,
    player_id   uuid NOT NULL REFERENCES players (id),
    game_id     uuid NOT NULL REFERENCES games (id),
    seat        integer NOT NULL,
    version     integer NOT NULL,
    token_hash  text NOT NULL DEFAULT '',
    used_at     timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (player_id, game_id, seat, version)
);

-- Every mail, claimed before it is sent (key: what it is about, so a retried or
-- redelivered job finds its claim and sends nothing), marked sent after the SMTP server
-- took it. A claim left unsent (a crash in between) is sent again by the sweeper, which
-- renders it anew from ``kind`` and ``ref``: nothing secret is stored here.
CREATE TABLE mails_sent (
    key         text PRIMARY KEY,
    player_id   uuid REFERENCES players (id),
    game_id     uuid,
    kind        text NOT NULL,
    ref         jsonb NOT NULL DEFAULT '{}',
    to_address  text NOT NULL,
    claimed_at  timestamptz NOT NULL DEFAULT now(),
    sent_at     timestamptz,
    dropped     text,                -- why a claim was not sent after all (the sweeper's finding)
    attempts    integer NOT NULL DEFAULT 0
);
CREATE INDEX mails_sent_window ON mails_sent (player_id, game_id, claimed_at DESC);
CREATE INDEX mails_sent_unsent ON mails_sent (claimed_at) WHERE sent_at IS NULL AND dropped IS NULL;

-- The daily digest: up to which notification a player's last digest went.
CREATE TABLE mail_digests (
    player_id            uuid PRIMARY KEY REFERENCES players (id),
    last_notification_id bigint NOT NULL DEFAULT 0,
    last_sent_at         timestamptz
);
