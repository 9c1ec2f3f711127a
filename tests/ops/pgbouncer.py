"""A real PgBouncer (Debian's package) in transaction pooling mode, in front of the test
session's PostgreSQL: started for a test, stopped after it."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from psycopg.conninfo import conninfo_to_dict, make_conninfo

from tests.e2e.live import free_port


def ini(port: int, target: dict, pool_size: int, statement_timeout_ms: int, listen: str = "127.0.0.1") -> str:
    return f"""[databases]
entrepot = host={target.get('host', '127.0.0.1')} port={target.get('port', 5432)} dbname={target['dbname']} connect_query='SET statement_timeout = {statement_timeout_ms}'

[pgbouncer]
listen_addr = {listen}
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = userlist.txt
pool_mode = transaction
default_pool_size = {pool_size}
max_client_conn = 200
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
"""


@contextmanager
def pgbouncer(database_url: str, pool_size: int = 2, statement_timeout_ms: int = 5000):
    """Yields the DATABASE_URL of a PgBouncer (transaction pooling, ``pool_size`` server
    connections) in front of ``database_url``'s database, as its user."""
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    assert os.path.exists(binary), "pgbouncer is not installed (.ci/run installs Debian's package)"
    target = conninfo_to_dict(database_url)
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="entrepot-pgbouncer-"))
    folder.chmod(0o755)
    (folder / "pgbouncer.ini").write_text(ini(port, target, pool_size, statement_timeout_ms))
    (folder / "userlist.txt").write_text(f'"{target["user"]}" "{target.get("password", "")}"\n')
    for file in folder.iterdir():
        file.chmod(0o644)
    # PgBouncer refuses to run as root: as postgres then
    user = ["-u", "postgres"] if os.geteuid() == 0 and _user_exists("postgres") else []
    log = open(folder / "pgbouncer.log", "wb")
    process = subprocess.Popen([binary, *user, str(folder / "pgbouncer.ini")], cwd=folder,
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, (folder / "pgbouncer.log").read_text()
                time.sleep(0.05)
        yield make_conninfo(database_url, host="127.0.0.1", port=port, dbname="entrepot")
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
