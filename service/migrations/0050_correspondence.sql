-- Correspondence play: time controls, the table's read model, vacations.

-- The time control chosen at creation (null: no clock), recorded in the stream as
-- TimeControlSet once the game starts.
ALTER TABLE games ADD COLUMN time_control jsonb;
-- The table's read model, written with every append: running clocks, who is away until
-- when, seats out, abort requests (see service/table.py TableGame.table_json).
ALTER TABLE games ADD COLUMN table_state jsonb NOT NULL DEFAULT '{"clocks": [], "away": [], "out": [], "abort_requests": []}';
-- When the table next has something to do by itself (a reminder, a deadline, a vacation
-- ending): what the timer jobs are scheduled for and what the sweeper scans.
ALTER TABLE games ADD COLUMN timer_at timestamptz;
-- The version at which the setup ended: abort is free until a seat has moved.
ALTER TABLE games ADD COLUMN started_version integer;
CREATE INDEX games_timer_at ON games (timer_at) WHERE status = 'active' AND timer_at IS NOT NULL;
CREATE INDEX games_out_seats ON games ((table_state -> 'out')) WHERE status = 'active' AND table_state -> 'out' <> '[]';

CREATE TABLE vacations (
    id         uuid PRIMARY KEY,
    player_id  uuid NOT NULL REFERENCES players (id),
    starts_at  timestamptz NOT NULL,
    ends_at    timestamptz NOT NULL,  -- moved earlier when the player ends it early
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (ends_at >= starts_at)
);
CREATE INDEX vacations_player ON vacations (player_id, ends_at);
CREATE INDEX vacations_current ON vacations (starts_at, ends_at);
