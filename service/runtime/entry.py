"""The ``entrepot`` command's entry point.

``entrepot verify`` runs the offline verifier without importing the server: an auditor
needs neither Flask nor psycopg nor redis installed. ``entrepot turns`` is a player's
question to a server (the HTTP client's ``turns``: the games waiting for you, most urgent
first; ``--url``/``ENTREPOT_URL``, ``--token``/``ENTREPOT_TOKEN``). Every other subcommand
is service.runtime.cli.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["verify"]:
        from verifier.cli import main as verify

        return verify(argv[1:])
    if argv[:1] == ["turns"]:
        from clients.cli import main as client

        options = argv[1:]  # the CLI takes its connection options before the subcommand
        return client([*options, "turns"])
    from service.runtime.cli import main as server

    return server(argv)


if __name__ == "__main__":
    raise SystemExit(main())
