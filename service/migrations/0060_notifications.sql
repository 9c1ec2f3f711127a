-- Notifications: what a player is told about their games, one row per thing told.
-- Written by the fan-out job that follows a committed event (service/notifications.py);
-- every channel (the player's stream, webhooks, mail) reads these rows, so a channel that
-- retries or a job that runs twice never invents or doubles a notification.

CREATE TABLE notifications (
    id         bigserial PRIMARY KEY,   -- also the event id of GET /v1/players/me/stream
    player_id  uuid NOT NULL REFERENCES players (id),
    game_id    uuid NOT NULL REFERENCES games (id),
    seat       integer,                 -- the seat concerned (null: the whole game)
    type       text NOT NULL CHECK (type IN ('your_turn', 'reminder', 'finished', 'message')),
    version    integer NOT NULL,        -- the game's version that caused it
    ref        text NOT NULL DEFAULT '', -- tells apart two causes at one version (a message's id)
    data       jsonb NOT NULL DEFAULT '{}',
    at         timestamptz NOT NULL,    -- when the cause was committed
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (player_id, game_id, type, version, ref)
);
CREATE INDEX notifications_player ON notifications (player_id, id);
CREATE INDEX notifications_game ON notifications (game_id, version);

-- What a player chose to receive by mail, and whether their address is proven theirs:
-- nothing is mailed to an address before it is verified.
ALTER TABLE players ADD COLUMN email_verified_at timestamptz;
ALTER TABLE players ADD COLUMN notify jsonb NOT NULL
    DEFAULT '{"your_turn": true, "reminder": true, "finished": true, "messages": true, "digest": "off"}';
