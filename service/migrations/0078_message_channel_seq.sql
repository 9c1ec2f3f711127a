-- Message numbers per channel (issue 26, item 14): with one numbering for the whole game,
-- a team reading seq 2 without seq 1 learnt how many messages the other team sent, and
-- when. `seq` stays the game-wide order (fan-out, paging inside the server); readers see
-- `channel_seq`, counted in their channel only.
ALTER TABLE messages ADD COLUMN channel_seq integer;
ALTER TABLE messages DISABLE TRIGGER messages_no_update;
UPDATE messages m SET channel_seq = n.channel_seq FROM (
    SELECT game_id, seq, row_number() OVER (PARTITION BY game_id, channel ORDER BY seq) AS channel_seq
    FROM messages) n
WHERE m.game_id = n.game_id AND m.seq = n.seq;
ALTER TABLE messages ENABLE TRIGGER messages_no_update;
ALTER TABLE messages ALTER COLUMN channel_seq SET NOT NULL;
CREATE UNIQUE INDEX messages_channel_seq ON messages (game_id, channel, channel_seq);
