-- A declined or lapsed invitation closes its seat (issue 26, item 13): it no longer opens
-- a private game to anyone who finds it. The game waits until its creator (or a seated
-- player) cancels it.
ALTER TABLE seats ADD COLUMN declined_at timestamptz;
