"""The mail jobs' names (workers/mail_jobs.py), queued on the short queue through
``JobQueue.enqueue_job`` with ids keyed on what they do, so a job queued twice runs once."""

from __future__ import annotations

MAIL_FOLLOWUP = "workers.mail_jobs.mail_followup"
MAIL_VERIFICATION = "workers.mail_jobs.mail_verification"
MAIL_DIGEST = "workers.mail_jobs.send_digest"
MAIL_RESEND = "workers.mail_jobs.resend_mail"
#: queued by GameService.play_computer when the computer made a timed-out seat's move
MAIL_STOOD_IN = "workers.mail_jobs.mail_stood_in"
