-- Lobby, ratings, profiles, archive (issue 30; docs/lobby.md).
--
-- games gains what its creator chose: rated (OpenSkill), private (hidden from the lobby,
-- the archive and spectators), the seek's rating range, and when a seek nobody filled is
-- withdrawn (expires_at; the sweeper aborts it, service/lobby.py).
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN private boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN min_rating integer;
ALTER TABLE games ADD COLUMN max_rating integer;
ALTER TABLE games ADD COLUMN expires_at timestamptz;

-- How many seats are open (nobody, no computer): kept by the trigger below on every seat
-- change, so that the lobby is one partial index, newest first (with and without a title).
ALTER TABLE games ADD COLUMN open_seats integer NOT NULL DEFAULT 0;
UPDATE games g SET open_seats = (SELECT count(*) FROM seats s WHERE s.game_id = g.id
                                 AND s.player_id IS NULL AND s.ai IS NULL AND s.declined_at IS NULL)
WHERE g.status = 'waiting';
CREATE FUNCTION seats_count_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET open_seats = o.n
    FROM (SELECT count(*) AS n FROM seats s WHERE s.game_id = NEW.game_id
          AND s.player_id IS NULL AND s.ai IS NULL AND s.declined_at IS NULL) o
    WHERE id = NEW.game_id AND open_seats <> o.n;
    RETURN NULL;
END
$$;
-- a declined seat (0076) is closed, not open
CREATE TRIGGER seats_open AFTER INSERT OR UPDATE OF player_id, ai, declined_at ON seats
    FOR EACH ROW EXECUTE FUNCTION seats_count_open();
CREATE INDEX games_lobby ON games (created_at DESC, id DESC)
    WHERE status = 'waiting' AND NOT private AND open_seats > 0;
CREATE INDEX games_lobby_title ON games (title, created_at DESC, id DESC)
    WHERE status = 'waiting' AND NOT private AND open_seats > 0;
-- Seeks to withdraw.
CREATE INDEX games_seek_expiry ON games (expires_at) WHERE status = 'waiting' AND open_seats > 0;
-- Watching and the archive without a player: public games by status, latest first.
CREATE INDEX games_public_status ON games (status, updated_at DESC, id DESC) WHERE NOT private;
CREATE INDEX games_public_title_status ON games (title, status, updated_at DESC, id DESC) WHERE NOT private;

-- Finding a player by the start of their name.
CREATE INDEX players_name_prefix ON players (lower(name) text_pattern_ops);

-- The archive: one row per (player, finished game), written by the trigger below in the
-- transaction that finishes the game. `won`: one of the player's seats is among the winners.
CREATE TABLE archive (
    player_id   uuid NOT NULL REFERENCES players (id),
    game_id     uuid NOT NULL REFERENCES games (id),
    title       text NOT NULL,
    variant     text,
    seat_count  integer NOT NULL,
    finished_at timestamptz NOT NULL,
    won         boolean NOT NULL,
    rated       boolean NOT NULL,
    private     boolean NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
CREATE INDEX archive_player ON archive (player_id, finished_at DESC, game_id DESC);
CREATE INDEX archive_player_title ON archive (player_id, title, finished_at DESC, game_id DESC);
CREATE INDEX archive_player_result ON archive (player_id, won, finished_at DESC, game_id DESC);

-- Finished rated games not yet rated (the rating job drains it, service/ratings.py).
CREATE TABLE rating_queue (
    game_id uuid PRIMARY KEY REFERENCES games (id),
    title   text NOT NULL
);
CREATE INDEX rating_queue_title ON rating_queue (title);

-- The projection: each rated game once, in finishing order (finished_at = its last event's
-- time, then its id), and each player's rating after it.
CREATE TABLE rated_games (
    game_id     uuid PRIMARY KEY REFERENCES games (id),
    title       text NOT NULL,
    finished_at timestamptz NOT NULL,
    rated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rated_games_order ON rated_games (title, finished_at, game_id);

CREATE TABLE rating_history (
    game_id     uuid NOT NULL REFERENCES games (id),
    player_id   uuid NOT NULL REFERENCES players (id),
    title       text NOT NULL,
    finished_at timestamptz NOT NULL,
    rank        integer NOT NULL,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL,
    rating      integer NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id, title, finished_at, game_id);
CREATE INDEX rating_history_order ON rating_history (title, finished_at, game_id);

CREATE TABLE ratings (
    player_id  uuid NOT NULL REFERENCES players (id),
    title      text NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL,
    rating     integer NOT NULL,
    games      integer NOT NULL,
    PRIMARY KEY (player_id, title)
);
CREATE INDEX ratings_leaderboard ON ratings (title, rating DESC, player_id);

CREATE FUNCTION games_finished_projection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'finished' AND OLD.status IS DISTINCT FROM 'finished' THEN
        INSERT INTO archive (player_id, game_id, title, variant, seat_count, finished_at, won, rated, private)
        SELECT s.player_id, NEW.id, NEW.title, NEW.options ->> 'variant', NEW.seat_count, NEW.updated_at,
               bool_or(coalesce(NEW.result -> 'winners', '[]') @> to_jsonb(s.index)), NEW.rated, NEW.private
        FROM seats s WHERE s.game_id = NEW.id AND s.player_id IS NOT NULL
        GROUP BY s.player_id
        ON CONFLICT DO NOTHING;
        IF NEW.rated THEN
            INSERT INTO rating_queue (game_id, title) VALUES (NEW.id, NEW.title) ON CONFLICT DO NOTHING;
        END IF;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER games_finished AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (NEW.status = 'finished' AND OLD.status IS DISTINCT FROM 'finished')
    EXECUTE FUNCTION games_finished_projection();

-- Games finished before this migration enter the archive (none of them is rated).
INSERT INTO archive (player_id, game_id, title, variant, seat_count, finished_at, won, rated, private)
SELECT s.player_id, g.id, g.title, g.options ->> 'variant', g.seat_count, g.updated_at,
       bool_or(coalesce(g.result -> 'winners', '[]') @> to_jsonb(s.index)), false, false
FROM games g JOIN seats s ON s.game_id = g.id AND s.player_id IS NOT NULL
WHERE g.status = 'finished'
GROUP BY s.player_id, g.id;
