-- Every command as received, with who sent it, stored with the events it produced (in
-- the same statement as those events) and append-only like them: an auditor re-derives
-- each event from the seed and these commands. The setup is a row with command NULL.
CREATE TABLE commands (
    game_id  uuid NOT NULL REFERENCES games (id),
    version  integer NOT NULL CHECK (version >= 0),  -- the game's version it was decided at
    last_seq integer NOT NULL CHECK (last_seq > version),  -- its events: version+1 .. last_seq
    seat     integer,                                -- the acting seat given to decide
    sender   jsonb NOT NULL,  -- {"kind": "player"|"computer"|"clock"|"server", ...}
    at       text NOT NULL,   -- the time given to decide, as decide saw it (RFC 3339)
    command  jsonb,           -- as received ({"type", fields...}); NULL for the setup
    PRIMARY KEY (game_id, version)
);

CREATE FUNCTION rows_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows are append-only: % is not allowed', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER commands_no_update BEFORE UPDATE OR DELETE ON commands
    FOR EACH ROW EXECUTE FUNCTION rows_append_only();
CREATE TRIGGER commands_no_truncate BEFORE TRUNCATE ON commands
    FOR EACH STATEMENT EXECUTE FUNCTION rows_append_only();
