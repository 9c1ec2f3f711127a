"""The connection options every command-line client takes: --url and --token, which
default to $ENTREPOT_URL and $ENTREPOT_TOKEN (resolved by the SDK's Client)."""

from __future__ import annotations

import argparse

from clients.sdk import DEFAULT_URL


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default=None,
                        help=f"the server (default: $ENTREPOT_URL, else {DEFAULT_URL})")
    parser.add_argument("--token", default=None, help="your bearer token (default: $ENTREPOT_TOKEN)")
