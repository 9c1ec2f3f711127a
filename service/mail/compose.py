"""One mail as an EmailMessage (the standard library's email package): text and HTML
alternatives, a stable Message-ID from what the mail is about, and the unsubscribe
headers of RFC 2369 / RFC 8058 with the same link in the body."""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate, parseaddr

#: RFC 5322's limit (998), not the 78 of SMTP's policy: folding at 78 would turn the
#: List-Unsubscribe URLs (longer than a line) into RFC 2047 encoded words, which no mail
#: client reads as a URL
POLICY = SMTP.clone(max_line_length=998)


@dataclass(frozen=True)
class Image:
    """A picture the HTML shows inline (``<img src="cid:{cid}">``): a part of the
    multipart/related around the HTML, so mail clients display it without fetching."""

    cid: str
    data: bytes
    subtype: str = "png"


@dataclass(frozen=True)
class Content:
    subject: str
    text: str
    #: HTML body fragments (already escaped); None: the text in <pre>
    html: str | None = None
    reply_to: str | None = None
    images: tuple[Image, ...] = ()


@dataclass(frozen=True)
class Unsubscribe:
    url: str
    mailto: str


def domain_of(address: str) -> str:
    _, addr = parseaddr(address)
    return addr.rpartition("@")[2] or "localhost"


def build(sender: str, to: str, key: str, content: Content, unsubscribe: Unsubscribe | None) -> EmailMessage:
    message = EmailMessage(policy=POLICY)
    message["From"] = sender
    message["To"] = to
    message["Subject"] = content.subject
    message["Date"] = formatdate(localtime=False, usegmt=True)
    # the same mail re-sent after a crash keeps its Message-ID: mail clients show it once
    message["Message-ID"] = f"<{hashlib.sha256(key.encode()).hexdigest()[:40]}@{domain_of(sender)}>"
    message["Auto-Submitted"] = "auto-generated"
    if content.reply_to:
        message["Reply-To"] = content.reply_to
    text, body_html = content.text, content.html or f"<pre>{html.escape(content.text)}</pre>"
    if unsubscribe is not None:
        message["List-Unsubscribe"] = f"<{unsubscribe.url}>, <{unsubscribe.mailto}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        text += f"\n\n--\nUnsubscribe: {unsubscribe.url}\n"
        body_html += (f'<hr><p style="font-size:small"><a href="{html.escape(unsubscribe.url)}">'
                      "Unsubscribe</a></p>")
    message.set_content(text)
    message.add_alternative(f"<!doctype html><html><body>{body_html}</body></html>", subtype="html")
    if content.images:
        # multipart/alternative [text/plain, multipart/related [text/html, image/png...]]
        html_part = message.get_payload()[1]
        for image in content.images:
            html_part.add_related(image.data, "image", image.subtype, cid=f"<{image.cid}>",
                                  disposition="inline", filename=f"{image.cid.split('@')[0]}.{image.subtype}")
    return message


def mailbox(local: str, domain: str) -> str:
    return str(Address(addr_spec=f"{local}@{domain}"))
