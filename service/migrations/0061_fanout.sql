-- How far each game's notifications have been worked out (service/notifications.py): the
-- fan-out job of a version takes this row's lock, notifies what lies between
-- notified_version and that version, and moves it on. The sweeper re-queues the fan-out
-- of any game whose version (or last message) stays ahead of it: a crash between a commit
-- and the enqueue of its fan-out delays notifications, never loses them.
CREATE TABLE game_fanouts (
    game_id              uuid PRIMARY KEY REFERENCES games (id),
    notified_version     integer NOT NULL DEFAULT 0,
    notified_message_seq integer NOT NULL DEFAULT 0
);
-- games that existed before notifications were told nothing: start them where they are
INSERT INTO game_fanouts (game_id, notified_version, notified_message_seq)
SELECT g.id, g.version, coalesce((SELECT max(m.seq) FROM messages m WHERE m.game_id = g.id), 0)
FROM games g;

-- The mail job of a notification is queued after the fan-out commits; mail_handled_at says
-- it was (or that the player has no address), so the sweeper re-queues those a crash left
-- behind (mail-<id>; the mail job decides
-- whether anything is sent).
ALTER TABLE notifications ADD COLUMN mail_handled_at timestamptz;
CREATE INDEX notifications_mail_unqueued ON notifications (created_at) WHERE mail_handled_at IS NULL;
