-- Keyed hash chains (entrepot-chain-v2): a random key per game, secret until the game
-- ends, enters every link, so no hash published before the end can be tested against a
-- guess of hidden data. Games created before this migration keep their v1 chain.
ALTER TABLE games ADD COLUMN chain text NOT NULL DEFAULT 'entrepot-chain-v1'
    CHECK (chain IN ('entrepot-chain-v1', 'entrepot-chain-v2'));
ALTER TABLE game_secrets ADD COLUMN chain_key text;
