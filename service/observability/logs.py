"""Logs: one JSON object per line on standard error (structlog), from every logger of the
process (ours, Flask's, RQ's, uvicorn's), each with ``timestamp``, ``level``, ``logger``,
``event`` and whatever the request or job bound: ``request_id``, ``route``, ``status``,
``duration_ms``, ``player_id`` (api/observe.py).

Never a secret: fields whose name says token, password, secret, authorization, cookie,
signature or body are dropped, and anything shaped like a bearer token, a webhook secret,
a reply address's token or a password in a URL is masked in every text.
``ENTREPOT_LOG_FORMAT=text`` gives plain lines for a terminal instead.
"""

from __future__ import annotations

import functools
import json
import logging
import logging.config
import os
import re
import sys
from typing import Any

import structlog

#: field names never logged (their values are replaced)
SECRET_FIELD = re.compile(r"token|passw|secret|authoriz|cookie|signature|^body$|mail_body|raw", re.I)
REDACTED = "[redacted]"
#: texts masked wherever they appear in a message or a field
_SECRET_TEXT = [
    (re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]+"), r"\1 " + REDACTED),
    (re.compile(r"whsec_[A-Za-z0-9+/=]+"), "whsec_" + REDACTED),
    (re.compile(r"(?i)\b(token|password|secret|key)=([^&\s\"']+)"), r"\1=" + REDACTED),
    (re.compile(r"(://[^:/@\s]+):[^@/\s]+@"), r"\1:" + REDACTED + "@"),  # passwords in URLs
    (re.compile(r"(\bplay\+)[A-Za-z0-9._-]+@"), r"\1" + REDACTED + "@"),  # reply addresses' tokens
]


def scrub_text(text: str) -> str:
    # each pattern needs one of these to match ("bearer" in any case, the others as
    # written): a text with none is returned without running the five (every request's
    # log line ran them over each of its fields, about 5% of the API's CPU; issue 24)
    if "=" not in text and "://" not in text and "play+" not in text and "whsec_" not in text \
            and "bearer" not in text.lower():
        return text
    for pattern, replacement in _SECRET_TEXT:
        text = pattern.sub(replacement, text)
    return text


@functools.lru_cache(maxsize=1024)
def _secret_field(key: str) -> bool:
    """A field name that says it holds a secret (names are few: remembered)."""
    return SECRET_FIELD.search(key) is not None and key != "event"


def scrub(_logger: Any, _method: str, event: dict) -> dict:
    """The structlog processor that keeps secrets out of the log."""
    for key in list(event):
        value = event[key]
        if isinstance(key, str) and _secret_field(key):
            event[key] = REDACTED
        elif isinstance(value, str):
            event[key] = scrub_text(value)
    return event


def json_mode() -> bool:
    return os.environ.get("ENTREPOT_LOG_FORMAT", "json").lower() != "text"


def _shared() -> list:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


#: the logger of the one line each request writes (api/observe.py)
ACCESS_LOGGER = "entrepot.request"
_LOG_RECORD_KEYS = frozenset(logging.LogRecord("name", 0, "pathname", 0, "msg", (), None).__dict__)


class JsonFormatter(structlog.stdlib.ProcessorFormatter):
    """The formatter of every handler: also named in uvicorn's --log-config."""

    def __init__(self, *args, **kwargs):
        self.json = json_mode()
        self.stamp = structlog.processors.TimeStamper(fmt="iso", utc=True)
        renderer = (structlog.processors.JSONRenderer(default=str) if self.json
                    else structlog.dev.ConsoleRenderer(colors=False))
        super().__init__(
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                scrub,
                renderer,
            ],
            foreign_pre_chain=_shared(),
        )

    def format(self, record: logging.LogRecord) -> str:
        if self.json and record.name == ACCESS_LOGGER and not record.exc_info and not record.stack_info:
            return self.access_line(record)
        return super().format(record)

    def access_line(self, record: logging.LogRecord) -> str:
        """The request's line (api/observe.py), one per request: the same object the chain
        above writes (the request's context, level, logger, the record's extra fields,
        timestamp, scrubbed), built directly. The chain's generic steps (a copy of the
        record, a walk of the stack for the caller's frame, each processor in turn) cost
        more than the request's own route on a simple GET (issue 24)."""
        event: dict[str, Any] = {"event": record.getMessage()}
        for key, value in structlog.contextvars.get_contextvars().items():
            event.setdefault(key, value)
        event["level"] = record.levelname.lower()
        event["logger"] = record.name
        for key, value in record.__dict__.items():
            if key not in _LOG_RECORD_KEYS:
                event[key] = value
        self.stamp(None, "", event)
        return json.dumps(scrub(None, "", event), default=str)


def configure(level: str | None = None) -> None:
    """Send every logger of this process through the JSON formatter, to standard error."""
    level = (level or os.environ.get("ENTREPOT_LOG_LEVEL") or "INFO").upper()
    structlog.configure(
        processors=[*_shared(), structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    logging.config.dictConfig(log_config(level))
    logging.captureWarnings(True)


def log_config(level: str = "INFO") -> dict:
    """A logging.config dictionary: the root and uvicorn's loggers, JSON on standard error.
    `entrepot serve` hands it to uvicorn (--log-config) so its own lines are JSON too."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "service.observability.logs.JsonFormatter"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json",
                                "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            # uvicorn's own handlers replaced by the root's; its access log is ours (api/observe.py)
            "uvicorn": {"handlers": [], "propagate": True, "level": level},
            "uvicorn.error": {"handlers": [], "propagate": True, "level": level},
            "uvicorn.access": {"handlers": [], "propagate": False, "level": "WARNING"},
        },
    }


def get(name: str):
    return structlog.get_logger(name)


if __name__ == "__main__":  # python -m service.observability.logs: print uvicorn's --log-config
    import json

    json.dump(log_config(), sys.stdout, indent=2)
