-- The workers' timer loop (ClockService.run_due_timers): a row per active game whose
-- table timer is due, offered by any worker and claimed with FOR UPDATE SKIP LOCKED while
-- the claimer runs the timer. A crashed claimer's lock goes with its connection, so the
-- next turn of any worker's loop takes the timer again; the row is removed once run.
CREATE TABLE timer_claims (
    game_id uuid PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE
);
