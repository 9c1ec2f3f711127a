-- Private notes: one text per (game, player), read and written only by that player
-- (service/notes.py). Not an event of the game: no stream, export or view reads it.
CREATE TABLE game_notes (
    game_id    uuid NOT NULL REFERENCES games (id),
    player_id  uuid NOT NULL REFERENCES players (id),
    text       text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, player_id)
);
