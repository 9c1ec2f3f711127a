"""The log's two shortcuts (issue 24) change nothing written: the request's line, built
directly, is the object structlog's chain writes for it; the secret scrub, which skips
its patterns on texts that cannot match them, masks what running them all masks."""

from __future__ import annotations

import json
import logging

import pytest
import structlog

from service.observability import logs


@pytest.fixture
def formatter(monkeypatch):
    monkeypatch.delenv("ENTREPOT_LOG_FORMAT", raising=False)
    structlog.contextvars.clear_contextvars()
    yield logs.JsonFormatter()
    structlog.contextvars.clear_contextvars()


def by_chain(formatter: logs.JsonFormatter, record: logging.LogRecord) -> dict:
    return json.loads(structlog.stdlib.ProcessorFormatter.format(formatter, record))


def record(level: int, **extra) -> logging.LogRecord:
    return logging.getLogger(logs.ACCESS_LOGGER).makeRecord(
        logs.ACCESS_LOGGER, level, __file__, 1, "request", (), None, extra=extra)


@pytest.mark.parametrize("bound, extra, level", [
    ({"request_id": "a1"}, {"method": "GET", "route": "/v1/health", "path": "/v1/health", "status": 200,
                            "duration_ms": 1.5, "player_id": None, "stream": None}, logging.INFO),
    ({"request_id": "b2", "player_id": "p-1"},
     {"method": "POST", "route": "/v1/games/{game_id}/commands", "path": "/v1/games/x/commands", "status": 500,
      "duration_ms": 12.25, "player_id": "p-1", "stream": True}, logging.ERROR),
    # secrets in a path, in a request id, in a field's name: masked alike
    ({"request_id": "whsec_abc"}, {"method": "GET", "route": "unmatched", "status": 404, "duration_ms": 0.1,
                                   "path": "/v1/unsubscribe/x?token=s3cr3t&u=https://a:pw@h/", "player_id": None,
                                   "stream": None, "authorization": "Bearer abc"}, logging.INFO),
])
def test_the_request_line_is_the_chains(formatter, bound, extra, level):
    structlog.contextvars.bind_contextvars(**bound)
    line = record(level, **extra)
    direct = json.loads(formatter.format(line))
    chained = by_chain(formatter, line)
    assert direct.pop("timestamp")[:16] == chained.pop("timestamp")[:16]
    assert direct == chained
    assert "s3cr3t" not in json.dumps(direct) and "pw@" not in json.dumps(direct)


def test_other_lines_still_take_the_chain(formatter):
    other = logging.getLogger("entrepot.other").makeRecord("entrepot.other", logging.INFO, __file__, 1,
                                                           "token=%s", ("s3cr3t",), None)
    assert json.loads(formatter.format(other))["event"] == "token=" + logs.REDACTED


TEXTS = [
    "", "plain text", "/v1/games/5e1b2c3d-1111-2222-3333-444455556666/commands",
    "Authorization: Bearer abc.def", "BEARER   xyz", "bEaReR t0k", "a bearer", "whsec_AbC+/=",
    "?token=abc&x=1", "password=hunter2", "SECRET=x", "key=v", "a=b", "postgresql://u:pw@host/db",
    "redis://:pw@h:6379", "play+abc.DEF-1@example.org", "reply to play+x@y", "://", "play+",
    "ʙearer x", "Ｂearer x", "\u212aey=v", "ſecret=v",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_scrub_masks_what_every_pattern_masks(text):
    expected = text
    for pattern, replacement in logs._SECRET_TEXT:
        expected = pattern.sub(replacement, expected)
    assert logs.scrub_text(text) == expected
