"""``entrepot verify RECORD [--receipt R ...] [--keys K]``: check an audit record offline.

Exit status: 0 verified (possibly only as far as the record allows: the message says so),
1 something does not hold (the message names the first step and what), 2 unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from verifier.verify import verify_record


def _load(path: str, what: str):
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        return json.loads(text)
    except OSError as err:
        raise SystemExit(f"entrepot verify: cannot read the {what} {path}: {err.strerror}") from None
    except ValueError as err:
        raise SystemExit(f"entrepot verify: the {what} {path} is not JSON: {err}") from None


def _receipts(paths: list[str]) -> list[dict]:
    """Each file holds one receipt, a list of them, or a command response carrying one."""
    found: list[dict] = []
    for path in paths:
        loaded = _load(path, "receipt")
        for item in loaded if isinstance(loaded, list) else [loaded]:
            found.append(item.get("receipt", item) if isinstance(item, dict) else item)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="entrepot verify", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="the audit record (GET /v1/games/{id}/export), or - for stdin")
    parser.add_argument("--receipt", action="append", default=[], metavar="FILE",
                        help="a receipt (or a command response holding one) to check; repeatable")
    parser.add_argument("--keys", metavar="FILE",
                        help="the server's public keys (GET /v1/keys) to check receipts with;"
                             " default: the keys listed in the record")
    args = parser.parse_args(argv)
    try:
        record = _load(args.record, "record")
        receipts = _receipts(args.receipt)
        keys = None
        if args.keys:
            loaded = _load(args.keys, "key list")  # GET /v1/keys, a list of keys, or one key
            keys = loaded if isinstance(loaded, list) else loaded.get("keys", [loaded])
    except SystemExit as err:
        print(err, file=sys.stderr)
        return 2
    report = verify_record(record, receipts, keys)
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
