"""Notifications: what each player is told after a commit, and the live channels, streams and webhooks that carry it (mail: service/mail)."""
