-- Folded game states at some versions (service/checkpoints.py): a cache that bounds the
-- cost of a game's state at any version, never the truth. Each row is rebuildable from
-- the events; one that fails its checks (MAC, format, the event hash it names) is ignored
-- and rewritten; emptying the table loses nothing but time.
CREATE TABLE state_checkpoints (
    game_id uuid    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    format  text    NOT NULL,
    version integer NOT NULL,
    hash    text    NOT NULL,
    state   bytea   NOT NULL,
    mac     bytea   NOT NULL,
    PRIMARY KEY (game_id, format, version)
);
