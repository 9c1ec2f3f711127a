"""Mail: settings and verification, outbound mail (SMTP or a folder), the notification
mails and their coalescing, and moves played by replying (inbound.py). docs/notifications.md
describes it for users."""
