-- A player's webhooks and their delivery log (service/webhooks.py).
-- The signing secret is stored sealed (PyNaCl secretbox under the server's webhook key),
-- never in clear: it must be usable to sign, so it cannot be hashed.
CREATE TABLE webhooks (
    id              uuid PRIMARY KEY,
    player_id       uuid NOT NULL REFERENCES players (id),
    url             text NOT NULL,
    events          text[] NOT NULL,
    secret_sealed   bytea NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    deleted_at      timestamptz,
    disabled_at     timestamptz,
    disabled_reason text,
    last_success_at timestamptz
);
CREATE INDEX webhooks_player ON webhooks (player_id) WHERE deleted_at IS NULL;

-- One row per (webhook, notification): written in the fan-out's transaction (an outbox),
-- claimed before each attempt (state 'sending' with a lease), its outcome recorded after.
CREATE TABLE webhook_deliveries (
    id              uuid PRIMARY KEY,   -- the webhook-id header: the same on every retry
    webhook_id      uuid NOT NULL REFERENCES webhooks (id),
    notification_id bigint NOT NULL REFERENCES notifications (id),
    state           text NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'sending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    lease_until     timestamptz,
    last_status     integer,
    last_error      text,
    delivered_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (webhook_id, notification_id)
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at DESC);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE state IN ('pending', 'sending');
