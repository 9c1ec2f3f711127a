-- Nobody is seated without consent (issue 9, item 12): a seat that names another player
-- than the game's creator is an invitation until that player accepts it. `invited_at`
-- is set while the invitation is pending and cleared on acceptance; a declined or lapsed
-- invitation leaves the seat open. Seats held before this migration count as accepted.
ALTER TABLE seats ADD COLUMN invited_at timestamptz;
ALTER TABLE seats ADD CONSTRAINT seats_invitation_names_a_player
    CHECK (invited_at IS NULL OR player_id IS NOT NULL);
CREATE INDEX seats_pending_invitations ON seats (invited_at) WHERE invited_at IS NOT NULL;
