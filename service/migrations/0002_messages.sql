-- Messages between players of a game: the whole table, or a team's private channel.
-- Append-only like events; a team's messages become public once the game is over.
CREATE TABLE messages (
    game_id   uuid NOT NULL REFERENCES games (id),
    seq       integer NOT NULL CHECK (seq >= 1),
    seat      integer NOT NULL,
    channel   text NOT NULL,          -- 'table' or 'team:<name>'
    body      text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
CREATE TRIGGER messages_no_update BEFORE UPDATE OR DELETE ON messages
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
