"""Checkpoints of folded states: the state at any version in bounded time.

`GET /v1/games/{id}/state?at=V` (and `board.svg?at=V`) fold the game's events up to V.
From the nearest checkpoint at or below V only the events after it are folded, at most
INTERVAL of them whatever V, where folding from the first event cost about 40 us an event.

Checkpoints are a cache, never the truth:
- each is a state folded from the events, kept at versions that are multiples of INTERVAL
  (written by the read that first folds past them: the write path pays nothing);
- one is read back only when its MAC (HMAC-SHA256 under a key derived from the server's
  signing key) holds, it was written by this code (FORMAT: a digest of domain/'s source
  and Python's version, so a change to a state's shape leaves every older one unread),
  and the event hash it names is the stored event's at its version; else it is ignored,
  the state is folded from the events, and the checkpoint rewritten;
- the state is unpickled only after the MAC holds: a row nobody wrote with the key is
  never loaded; a row that fails to load is ignored like a corrupt one;
- any failure to write one is logged and forgotten; emptying the table loses only time.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import pickle
import sys
from functools import cache
from pathlib import Path

import domain
from domain.decider import GameDefinition
from service.audit import chain
from service.games.states import Folded, decode
from service.games.store import Store, Tx

log = logging.getLogger(__name__)

INTERVAL = 50
#: the rules' code, whose every file a checkpoint's validity depends on
DOMAIN = Path(domain.__file__).resolve().parent


@cache
def code_format() -> str:
    """What a checkpoint's state depends on besides its events: the domain's code."""
    digest = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    for path in sorted(DOMAIN.rglob("*.py")):
        digest.update(str(path.relative_to(DOMAIN)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


class Checkpoints:
    def __init__(self, store: Store, key: bytes, interval: int = INTERVAL):
        self.store = store
        self.key = key
        self.interval = interval

    def fold_to(self, tx: Tx, title: GameDefinition, game_id: str, at: int) -> tuple[Folded, list[Folded]]:
        """The state at version ``at`` (1 <= at <= the game's version), and the checkpoints
        passed on the way that are not stored yet (for ``save``, after the read)."""
        start = self.nearest(tx, game_id, at) or Folded(None, 0, chain.genesis(game_id))
        state, version, last_hash = start.state, start.version, start.last_hash
        passed = []
        for stored in tx.events(game_id, after=start.version, upto=at):
            state = title.evolve(state, decode(title, stored))
            version, last_hash = stored.seq, stored.hash
            if version % self.interval == 0:
                passed.append(Folded(state, version, last_hash))
        return Folded(state, version, last_hash), passed

    def nearest(self, tx: Tx, game_id: str, at: int) -> Folded | None:
        row = tx.conn.execute(
            "SELECT c.version, c.hash, c.state, c.mac, e.hash FROM state_checkpoints c"
            " LEFT JOIN events e ON e.game_id = c.game_id AND e.seq = c.version"
            " WHERE c.game_id = %s AND c.format = %s AND c.version <= %s ORDER BY c.version DESC LIMIT 1",
            (game_id, code_format(), at),
        ).fetchone()
        if row is None:
            return None
        version, hash_hex, blob, mac, event_hash = row
        blob, mac = bytes(blob), bytes(mac)
        if hash_hex != event_hash or not hmac.compare_digest(mac, self._mac(game_id, version, hash_hex, blob)):
            log.warning("ignored the checkpoint of game %s at version %s: it does not check", game_id, version)
            return None
        try:
            state = pickle.loads(blob)
        except Exception:
            log.warning("ignored the checkpoint of game %s at version %s: unreadable", game_id, version)
            return None
        return Folded(state, version, hash_hex)

    def save(self, game_id: str, passed: list[Folded]) -> None:
        if not passed:
            return
        rows = []
        for folded in passed:
            blob = pickle.dumps(folded.state, protocol=pickle.HIGHEST_PROTOCOL)
            rows.append((game_id, code_format(), folded.version, folded.last_hash, blob,
                         self._mac(game_id, folded.version, folded.last_hash, blob)))
        try:
            with self.store.tx() as tx, tx.conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO state_checkpoints (game_id, format, version, hash, state, mac)"
                    " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (game_id, format, version)"
                    " DO UPDATE SET hash = excluded.hash, state = excluded.state, mac = excluded.mac",
                    rows,
                )
        except Exception:  # a cache: the next read folds from the events again
            log.warning("could not store checkpoints of game %s", game_id, exc_info=True)

    def _mac(self, game_id: str, version: int, hash_hex: str, blob: bytes) -> bytes:
        head = f"{code_format()}\0{game_id}\0{version}\0{hash_hex}\0".encode()
        return hmac.new(self.key, head + blob, hashlib.sha256).digest()
