"""Outbound transports and the reading of replies, without the database: SMTP URLs, login
on a real aiosmtpd server, the folder of .eml files, the first line of a reply."""

from __future__ import annotations

import logging
import smtplib
import ssl
import subprocess
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from service.mail.compose import Content, Unsubscribe, build
from service.mail.inbound import Unparseable, first_line, parse
from service.mail.transport import FolderTransport, SmtpTransport, parse_smtp_url
from tests.e2e.live import free_port


def test_smtp_urls():
    plain = parse_smtp_url("smtp://mail.example:2525")
    assert (plain.host, plain.port, plain.tls, plain.user) == ("mail.example", 2525, "none", None)
    upgraded = parse_smtp_url("smtp://ada:s%40cret@mail.example?starttls=1")
    assert (upgraded.port, upgraded.tls, upgraded.user, upgraded.password) == (587, "starttls", "ada", "s@cret")
    assert parse_smtp_url("smtp+starttls://mail.example").tls == "starttls"
    implicit = parse_smtp_url("smtps://u:p@mail.example")
    assert (implicit.port, implicit.tls) == (465, "implicit")
    with pytest.raises(ValueError):
        parse_smtp_url("http://mail.example")


def _mail(key: str = "k") -> EmailMessage:
    return build("Entrepot <entrepot@games.test>", "ada@players.test", key,
                 Content("Hello", "Hello Ada"), Unsubscribe("http://e.test/v1/unsubscribe/x", "mailto:u@games.test"))


class Collect:
    def __init__(self):
        self.got: list[tuple[bytes, object]] = []

    async def handle_DATA(self, server, session, envelope):
        self.got.append((envelope.content, session.auth_data))
        return "250 OK"


def test_smtp_login_when_a_user_is_given():
    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"ada" and auth_data.password == b"pw"
        return AuthResult(success=ok, handled=False)

    collect = Collect()
    controller = Controller(collect, hostname="127.0.0.1", port=free_port(), authenticator=authenticate,
                            auth_require_tls=False, auth_required=True)
    controller.start()
    try:
        SmtpTransport(f"smtp://ada:pw@127.0.0.1:{controller.port}").send(_mail())
        with pytest.raises(smtplib.SMTPAuthenticationError):  # a wrong password is refused
            SmtpTransport(f"smtp://ada:nope@127.0.0.1:{controller.port}").send(_mail())
    finally:
        controller.stop()
    assert len(collect.got) == 1
    received = BytesParser(policy=policy.default).parsebytes(collect.got[0][0])
    assert received["Subject"] == "Hello" and received["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_without_smtp_mails_are_eml_files_and_the_log_says_so_once(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(FolderTransport, "_announced", False)
    folder = FolderTransport(tmp_path / "mail")
    with caplog.at_level(logging.WARNING):
        folder.send(_mail("a"))
        folder.send(_mail("b"))
    files = sorted((tmp_path / "mail").glob("*.eml"))
    assert len(files) == 2 and not list((tmp_path / "mail").glob("*.part"))
    assert sum("no ENTREPOT_SMTP_URL" in r.message for r in caplog.records) == 1
    stored = BytesParser(policy=policy.default).parsebytes(files[0].read_bytes())
    assert stored.get_body(("plain",)).get_content().startswith("Hello Ada")


def _reply(body: str, subtype: str = "plain") -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@x.test", "play+1-abc@games.test", "Re: x"
    message.set_content(body, subtype=subtype)
    return parse(message.as_bytes())


def test_the_first_line_of_a_reply():
    assert first_line(_reply("\n\n  3  \n> 1. ChooseCard\n")) == "3"
    assert first_line(_reply("> quoted first\n\n2.\n")) == "2."
    assert first_line(_reply('{"type": "ChooseCard",\n "card": 7}\n\n> old')) == '{"type": "ChooseCard", "card": 7}'
    assert first_line(_reply("<div><p>4</p><blockquote>&gt; 1. x</blockquote></div>", "html")) == "4"
    assert first_line(_reply("")) == ""
    with pytest.raises(Unparseable):
        parse(b"")
    with pytest.raises(Unparseable):
        parse(b"just some words\n")


@pytest.fixture
def tls_files(tmp_path, monkeypatch):
    """A self-signed certificate for localhost, trusted by this process's default context
    (SSL_CERT_FILE), as a real mail provider's certificate is trusted through the system's."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost"], check=True, capture_output=True)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def _login_as_ada(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"ada" and auth_data.password == b"pw"
    return AuthResult(success=ok, handled=False)


def test_starttls_then_login_on_a_server_that_requires_both(tls_files):
    collect = Collect()
    controller = Controller(collect, hostname="127.0.0.1", port=free_port(), tls_context=tls_files,
                            require_starttls=True, authenticator=_login_as_ada, auth_required=True)
    controller.start()
    try:
        SmtpTransport(f"smtp://ada:pw@localhost:{controller.port}?starttls=1").send(_mail())
        with pytest.raises(smtplib.SMTPAuthenticationError):  # the login really is checked
            SmtpTransport(f"smtp://ada:nope@localhost:{controller.port}?starttls=1").send(_mail())
        with pytest.raises(smtplib.SMTPException):  # without STARTTLS the server refuses to go on
            SmtpTransport(f"smtp://ada:pw@localhost:{controller.port}").send(_mail())
    finally:
        controller.stop()
    assert len(collect.got) == 1


def test_implicit_tls_checks_the_servers_certificate(tls_files, monkeypatch):
    collect = Collect()
    # aiosmtpd counts only STARTTLS as TLS for AUTH: on an implicit-TLS port that check is moot
    controller = Controller(collect, hostname="127.0.0.1", port=free_port(), ssl_context=tls_files,
                            authenticator=_login_as_ada, auth_required=True, auth_require_tls=False)
    controller.start()
    try:
        SmtpTransport(f"smtps://ada:pw@localhost:{controller.port}").send(_mail())
        monkeypatch.delenv("SSL_CERT_FILE")  # a certificate nobody vouches for is refused
        with pytest.raises(ssl.SSLCertVerificationError):
            SmtpTransport(f"smtps://ada:pw@localhost:{controller.port}").send(_mail())
    finally:
        controller.stop()
    assert len(collect.got) == 1
