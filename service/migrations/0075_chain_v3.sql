-- entrepot-chain-v3: as v2 (keyed), and each step's first link also covers the step's
-- command, sender, seat and time (verifier/chain.py), so none of them can be changed in an
-- audit record without breaking the chain. Older games keep the chain they were played on.
ALTER TABLE games DROP CONSTRAINT IF EXISTS games_chain_check;
ALTER TABLE games ADD CONSTRAINT games_chain_check
    CHECK (chain IN ('entrepot-chain-v1', 'entrepot-chain-v2', 'entrepot-chain-v3'));
