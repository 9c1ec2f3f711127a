"""Bounds on inbound mail, checked on the raw bytes before any parsing work (issue 26,
item 6), and the RFC 3834 test of automatic mail (item 5).

Parsing a message costs time in proportion to what its sender chose: a To header of 32k
addresses took 49 s of CPU in ``getaddresses``, and about 1,200 nested comments in a
header made the parser recurse until RecursionError. So before parsing: the message's
size, its header block's size, the addresses its address headers hold, the depth of
nested comments in any header and of nested multiparts are bounded, and a message over a
bound is refused for good (``Refused``: 554 by the listener, exit 1 by ``mail-in``), not
deferred: a sender retrying a poison message for days gains nothing. A reply to a game
mail is a few kilobytes with a handful of addresses.
"""

from __future__ import annotations

import re
from email.message import EmailMessage

#: the whole message (the SMTP listener also advertises it as its SIZE limit)
MAX_MESSAGE_BYTES = 256 * 1024
#: the header block, up to the first empty line
MAX_HEADER_BYTES = 32 * 1024
#: addresses in all address headers together (and recipients of one SMTP transaction)
MAX_ADDRESSES = 50
MAX_RECIPIENTS = 20
#: nested comments "(...(...)...)" in one header (a real one nests one or two deep)
MAX_COMMENT_DEPTH = 10
#: multipart parts nested in one another (a reply: alternative inside mixed)
MAX_MULTIPARTS = 16

ADDRESS_HEADER = re.compile(rb"^(to|cc|bcc|from|sender|reply-to|delivered-to|x-original-to|resent-[a-z]+)\s*:",
                            re.I)
_MULTIPART = re.compile(rb"^content-type\s*:\s*multipart/", re.I | re.M)
_HEADER_END = re.compile(rb"\r?\n\r?\n")


class Refused(Exception):
    """A message refused for good before parsing: over a bound (the reason says which)."""


def check_raw(raw: bytes) -> None:
    """Refused if the raw message is over any bound; cheap (one pass over the bytes)."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise Refused(f"the message is larger than {MAX_MESSAGE_BYTES // 1024} KiB")
    end = _HEADER_END.search(raw, 0, MAX_HEADER_BYTES + 4)
    header = raw[: end.start()] if end else raw
    if len(header) > MAX_HEADER_BYTES:
        raise Refused(f"the header is larger than {MAX_HEADER_BYTES // 1024} KiB")
    addresses = 0
    for field in _fields(header):
        if _comment_depth(field) > MAX_COMMENT_DEPTH:
            raise Refused(f"a header nests comments more than {MAX_COMMENT_DEPTH} deep")
        if ADDRESS_HEADER.match(field):
            addresses += field.count(b"@") + field.count(b",")
            if addresses > 2 * MAX_ADDRESSES:  # an address is one "@" and at most one ","
                raise Refused(f"the address headers hold more than {MAX_ADDRESSES} addresses")
    if len(_MULTIPART.findall(raw)) > MAX_MULTIPARTS:
        raise Refused(f"the message nests more than {MAX_MULTIPARTS} multipart parts")


def _fields(header: bytes) -> list[bytes]:
    """The header's fields, each unfolded (continuation lines begin with a space or tab)."""
    fields: list[bytes] = []
    for line in header.splitlines():
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1] += line
        else:
            fields.append(line)
    return fields


def _comment_depth(field: bytes) -> int:
    depth = deepest = 0
    escaped = False
    for byte in field:
        if escaped:
            escaped = False
        elif byte == 0x5C:  # backslash
            escaped = True
        elif byte == 0x28:  # (
            depth += 1
            deepest = max(deepest, depth)
        elif byte == 0x29 and depth:  # )
            depth -= 1
    return deepest


def automatic(message: EmailMessage) -> str | None:
    """Why this message was sent by a program, not a person (RFC 3834 and the headers
    auto-responders use), or None: such a message is never answered, so two responders
    cannot mail each other forever (an out-of-office reply went back and forth 5 rounds)."""
    submitted = str(message.get("Auto-Submitted", "")).strip().lower()
    if submitted and not submitted.startswith("no"):
        return f"Auto-Submitted: {submitted[:40]}"
    precedence = str(message.get("Precedence", "")).strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "List-Id", "List-Unsubscribe"):
        if message.get(name) is not None:
            return name
    if str(message.get("Return-Path", "")).strip() == "<>":
        return "a bounce (empty Return-Path)"
    return None
