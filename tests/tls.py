"""A self-signed certificate for ``localhost``, for tests that talk TLS to a real server in
the test process (mail over STARTTLS or implicit TLS, webhooks over https)."""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path


def localhost_server_context(folder: Path) -> tuple[ssl.SSLContext, Path]:
    """(a server-side context holding a fresh certificate for localhost, that certificate's
    file: point SSL_CERT_FILE at it for clients of this process to trust it)."""
    cert, key = folder / "localhost-cert.pem", folder / "localhost-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost"], check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context, cert
