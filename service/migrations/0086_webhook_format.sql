-- The body a webhook takes (service/webhook_formats.py): the signed Standard Webhooks body,
-- or what Discord's or Slack's incoming webhooks document.
ALTER TABLE webhooks ADD COLUMN format text NOT NULL DEFAULT 'standard'
    CHECK (format IN ('standard', 'discord', 'slack'));
