-- Replies are judged by what they ask (service/mail/inbound.py): each reply token keeps
-- the numbered commands of the mail that carried it (so "3" means the third move of that
-- mail, whatever the game's version when the reply arrives), and when it expires.
ALTER TABLE reply_tokens ADD COLUMN commands jsonb NOT NULL DEFAULT '[]';
ALTER TABLE reply_tokens ADD COLUMN expires_at timestamptz;
