"""Real PostgreSQL servers for the operations tests: a primary with synchronous streaming
replication to a standby (pg_basebackup), started from Debian's binaries as the postgres
user, killed and promoted as an operator would. ``prefix`` runs every command inside a
network namespace (``ip netns exec NAME``) for the multi-host test."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

PG_BIN = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]) if glob.glob("/usr/lib/postgresql/*/bin") else None


def scratch(prefix: str) -> Path:
    """A folder the postgres user may enter (pytest's are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    return folder


class PgNode:
    def __init__(self, folder: Path, host: str, port: int, prefix: tuple[str, ...] = ()):
        self.data, self.host, self.port, self.prefix = folder / "data", host, port, prefix
        self.log = folder / f"postgres-{port}.log"
        self.process: subprocess.Popen | None = None
        shutil.chown(folder, "postgres", "postgres")

    @property
    def listen(self) -> str:
        """Its address, and loopback for a PgBouncer beside it."""
        return self.host if self.host == "127.0.0.1" else f"{self.host},127.0.0.1"

    def _as_postgres(self, *cmd: str) -> list[str]:
        return [*self.prefix, "runuser", "-u", "postgres", "--", *cmd]

    def _run(self, *cmd: str) -> None:
        done = subprocess.run(self._as_postgres(*cmd), capture_output=True, text=True)
        assert done.returncode == 0, f"{cmd[0]}: {done.stdout}{done.stderr}"

    def _settings(self, **values) -> None:
        lines = "".join(f"{k} = '{v}'\n" for k, v in values.items())
        with open(self.data / "postgresql.auto.conf", "a") as conf:
            conf.write(lines)

    def init_primary(self) -> PgNode:
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N", "-E", "UTF8")
        self._settings(
            listen_addresses=self.listen, port=self.port, unix_socket_directories=str(self.data.parent),
            wal_level="replica", max_wal_senders=5, hot_standby="on", fsync="off",
            # a commit is acknowledged once the standby has it: no acknowledged move is
            # lost when the primary dies
            synchronous_standby_names="*", synchronous_commit="on",
        )
        with open(self.data / "pg_hba.conf", "a") as hba:
            hba.write("host all all 0.0.0.0/0 trust\nhost replication all 0.0.0.0/0 trust\n")
        return self

    def init_standby(self, primary: PgNode) -> PgNode:
        self._run(str(PG_BIN / "pg_basebackup"), "-h", primary.host, "-p", str(primary.port), "-U", "postgres",
                  "-D", str(self.data), "-R", "-X", "stream", "-c", "fast")
        # once promoted it has no standby of its own: it must not wait for one
        self._settings(listen_addresses=self.listen, port=self.port, unix_socket_directories=str(self.data.parent),
                       synchronous_standby_names="")
        return self

    def start(self, timeout: float = 30) -> PgNode:
        log = open(self.log, "ab")
        self.process = subprocess.Popen(self._as_postgres(str(PG_BIN / "postgres"), "-D", str(self.data)),
                                        stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while subprocess.run([*self.prefix, str(PG_BIN / "pg_isready"), "-q", "-h", self.host, "-p", str(self.port)]
                             ).returncode != 0:
            assert time.monotonic() < deadline and self.process.poll() is None, self.log.read_text()[-2000:]
            time.sleep(0.1)
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@{self.host}:{self.port}/{dbname}"

    def crash(self) -> None:
        """The server dies at once (immediate shutdown: every backend quits, nothing is flushed)."""
        subprocess.run(self._as_postgres(str(PG_BIN / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate"),
                       capture_output=True)
        if self.process is not None:
            self.process.wait(timeout=10)

    def promote(self) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "promote", "-w", "-D", str(self.data))

    def wait_streaming(self, primary: PgNode, timeout: float = 30) -> None:
        """Until the primary names this standby synchronous."""
        deadline = time.monotonic() + timeout
        with psycopg.connect(primary.url(), autocommit=True) as conn:
            while not conn.execute("SELECT 1 FROM pg_stat_replication WHERE sync_state = 'sync'").fetchone():
                assert time.monotonic() < deadline, "the standby never streamed"
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            subprocess.run(self._as_postgres(str(PG_BIN / "pg_ctl"), "stop", "-D", str(self.data), "-m", "fast"),
                           capture_output=True)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def multi_host_url(nodes: list[PgNode], dbname: str, **params: str) -> str:
    """libpq's multi-host form: the first that takes writes wins."""
    hosts = ",".join(f"{n.host}:{n.port}" for n in nodes)
    query = "&".join(f"{k}={v}" for k, v in {"target_session_attrs": "read-write", **params}.items())
    return f"postgresql://postgres@{hosts}/{dbname}?{query}"


def env_without_pg() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("PG")}
