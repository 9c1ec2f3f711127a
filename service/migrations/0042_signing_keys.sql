-- The server's public signing keys (Ed25519), published at GET /v1/keys with their
-- validity periods. Private keys are never stored in the database (see docs/audit.md).
CREATE TABLE signing_keys (
    key_id      text PRIMARY KEY,
    algorithm   text NOT NULL DEFAULT 'Ed25519' CHECK (algorithm = 'Ed25519'),
    public_key  text NOT NULL UNIQUE,   -- raw 32 bytes, standard base64
    valid_from  timestamptz NOT NULL DEFAULT now(),
    valid_until timestamptz             -- NULL while the key signs
);
