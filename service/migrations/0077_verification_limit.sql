-- Verification mails per address (issue 26, item 7): counted over the last hour by
-- address, so that no one can make the server mail a stranger over and over.
CREATE INDEX email_verifications_address ON email_verifications (lower(email), created_at);
