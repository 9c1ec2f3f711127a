-- Idempotent requests, redone (issue 9, items 4-6). The old table kept first responses in
-- clear, a new player's bearer token among them, under one scope for every anonymous
-- caller: it is dropped with what it held (a retry of an older request runs it again).
--
-- A key is scoped by caller (player or anonymous), method and path, and stored only as
-- `lookup`, derived from all four. The first response is sealed (NaCl secretbox) with a key
-- derived from the Idempotency-Key itself: a database reader learns nothing, and only
-- whoever holds the Idempotency-Key can have it replayed.
DROP TABLE idempotency_keys;

CREATE TABLE idempotency_requests (
    lookup       text PRIMARY KEY,          -- BLAKE2b(scope, method, path, key), hex
    request_hash text NOT NULL,             -- HMAC of the body under the derived key
    status       integer,                   -- set in the transaction that claimed the key
    sealed_body  bytea,                     -- nonce || secretbox ciphertext of the response
    expires_at   timestamptz NOT NULL
);
CREATE INDEX idempotency_requests_expiry ON idempotency_requests (expires_at);
