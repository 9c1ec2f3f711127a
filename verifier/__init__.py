"""The offline verifier of audit records: ``entrepot verify game.json [--receipt R ...]``.

This package imports only ``domain/``, the standard library and, for receipts, PyNaCl:
an auditor runs it without the server's dependencies (Flask, psycopg, redis). The
import-linter contract "The verifier needs no server" in pyproject.toml keeps it so.
The format it checks is described in docs/audit.md.
"""
