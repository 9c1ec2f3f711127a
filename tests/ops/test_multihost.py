"""The deploy/ layout across hosts, on this machine: Linux network namespaces on a bridge
(root), one per machine. PostgreSQL primary and synchronous streaming standby, each with
a PgBouncer (transaction pooling) beside it; Redis; two API hosts behind nginx (the
repository's deploy/nginx.conf); three worker hosts; an SMTP sink and a webhook receiver on
the test's side of the bridge. Games with clocks are played through nginx; midway the
primary's host dies (processes killed, link down) and the standby is promoted, then a
worker host and an API host die. Afterwards every finished game's export passes
`entrepot verify`; no acknowledged move is lost or doubled, every timeout fired, every
mail and webhook was delivered once. Prints moves, failover time and the 5xx count."""

from __future__ import annotations

import base64
import faulthandler
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
import pytest
import requests
from aiosmtpd.controller import Controller

from service.mail.mailer import RESEND_AFTER_SECONDS
from tests.conftest import ROOT, UNTHROTTLED
from tests.e2e.live import free_port
from tests.mail.conftest import Sink, text_of
from tests.notifications.receiver import Receiver
from tests.ops.cluster import PgNode, multi_host_url, scratch
from tests.ops.netns import Network
from tests.ops.pgbouncer import ini

#: flaky(reruns=4) until 2026-11-28: one run in two or three saw no answer at all after the
#: primary's cable was pulled. The cause: both tables' games had ended within the seconds
#: before the crash on a fast machine, so nobody was left to move (the threads had returned;
#: the diagnosis now says so). A table now starts another game when its game ends.
#: flaky(reruns=2) until the session of 2026-11-28 evening: with moves (and so mails and
#: webhooks) flowing when a worker host is killed, the one documented duplicate window of
#: each (service/mail/mailer.py, docs/notifications.md: killed after the SMTP server or the
#: receiver took it, before it was recorded; the resend keeps its Message-ID or webhook-id)
#: was hit once in a CI dry run, and the test counted any repeat as a failure. It now allows
#: exactly that window (``killed_in_the_window``) and nothing else, without reruns.

#: libpq gives up on a dead host fast: connect, unanswered writes, silent peers
FAST_FAIL = {"connect_timeout": "2", "tcp_user_timeout": "3000", "keepalives_idle": "2",
             "keepalives_interval": "1", "keepalives_count": "2"}


def killed_in_the_window(arrivals: list[tuple[str, float]], killed: float, what: str) -> int:
    """How many of ``arrivals`` (id, when it arrived) came twice, each repeat allowed only
    in the documented window: its first copy arrived before the worker host's processes
    were gone (the dead worker had sent it and not yet recorded it), and the copy resent
    with the same id after. Anything else that arrives twice fails the test."""
    seen: dict[str, list[float]] = {}
    for ident, at in arrivals:
        seen.setdefault(ident, []).append(at)
    repeated = {ident: sorted(times) for ident, times in seen.items() if len(times) > 1}
    for ident, times in repeated.items():
        assert len(times) == 2 and times[0] <= killed < times[1], (
            f"{what} {ident} arrived {len(times)} times, at {times} (the worker host was killed at {killed}):"
            " not the one window of a repeat")
    return len(repeated)


def test_a_repeat_is_allowed_only_across_the_kill():
    killed = 100.0
    assert killed_in_the_window([("a", 99.0), ("b", 99.5), ("a", 130.0)], killed, "mail") == 1
    assert killed_in_the_window([("a", 99.0), ("b", 101.0)], killed, "mail") == 0
    for arrivals in ([("a", 98.0), ("a", 99.0)],  # both before the kill: sent twice by a live worker
                     [("a", 101.0), ("a", 102.0)],  # both after it
                     [("a", 99.0), ("a", 101.0), ("a", 102.0)]):  # three copies
        with pytest.raises(AssertionError, match="not the one window"):
            killed_in_the_window(arrivals, killed, "mail")


def wait_until(predicate, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = predicate()
            if value:
                return value
        except (requests.RequestException, psycopg.Error):
            pass
        assert time.monotonic() < deadline, f"timed out: {what}"
        time.sleep(0.2)


class Api:
    """HTTP through nginx, as a client would: every answer counted; 502/503/504 retried
    with the same Idempotency-Key after Retry-After."""

    def __init__(self, base: str):
        self.base = base
        self.statuses: list[tuple[float, int]] = []
        self.lock = threading.Lock()

    def call(self, method: str, path: str, token: str | None = None, body=None, tries: int = 60):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if method == "POST":
            headers["Idempotency-Key"] = str(uuid.uuid4())
        for _ in range(tries):
            sent = time.monotonic()
            try:
                response = requests.request(method, self.base + path, headers=headers, json=body, timeout=15)
            except requests.RequestException:
                time.sleep(0.2)
                continue
            with self.lock:
                self.statuses.append((sent, response.status_code))  # when it was sent
            if response.status_code in (502, 503, 504):
                time.sleep(min(float(response.headers.get("Retry-After", "0.3")), 0.5))
                continue
            return response
        raise AssertionError(f"{method} {path}: no answer")


class Table:
    """Two people playing as fast as the server lets them: a game, and when it ends another,
    until told to stop (a fast machine ends a game within the seconds before the crash, and
    a table that stopped there left nobody to move after the promotion)."""

    def __init__(self, api: Api, new_game, players: list[dict]):
        self.api, self.new_game, self.players = api, new_game, players
        self.game_id = new_game(*players)
        #: each game's versions acknowledged by a 201
        self.acknowledged: dict[str, list[int]] = {self.game_id: []}

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            game = self.api.call("GET", f"/v1/games/{self.game_id}").json()
            if game["status"] != "active":
                self.game_id = self.new_game(*self.players)
                self.acknowledged[self.game_id] = []
                continue
            seat = game["to_act"][0]
            token = self.players[seat]["token"]
            legal = self.api.call("GET", f"/v1/games/{self.game_id}/legal-commands?seat={seat}", token).json()
            played = self.api.call("POST", f"/v1/games/{self.game_id}/commands", token, {
                "seat": seat, "command": legal["commands"][0], "expected_version": legal["version"]})
            if played.status_code == 201:
                self.acknowledged[self.game_id].append(played.json()["version"])


def nginx_conf(folder: Path, listen: str, apis: list[str]) -> Path:
    """The repository's deploy/nginx.conf, with this layout's addresses and plain HTTP."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site = site.replace("listen 443 ssl http2;", f"listen {listen}:80;")
    upstream = "".join(f"    server {a}:8000 max_fails=1 fail_timeout=10s;\n" for a in apis)
    start = site.index("upstream entrepot_api {") + len("upstream entrepot_api {\n")
    site = site[:start] + upstream + site[site.index("}", start):]
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / sub).mkdir(exist_ok=True)
        (folder / sub).chmod(0o777)
    conf = folder / "nginx.conf"
    conf.write_text(f"""daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{site}
}}
""")
    return conf


@pytest.mark.multihost
@pytest.mark.slow(seconds=150)
def test_the_deploy_layout_survives_a_failover_and_dead_hosts(settings):
    assert os.geteuid() == 0, "network namespaces need root (CI runs as root)"
    for tool in ("ip", "nginx", "pgbouncer", "redis-server", "runuser"):
        assert shutil.which(tool), f"{tool} is missing (.ci/run installs it)"
    tag = f"{os.getpid() % 10000:04d}"
    net = Network(tag, f"10.231.{os.getpid() % 200 + 20}")
    folder = scratch("entrepot-multihost-")
    sink, receiver, controller = Sink(), None, None
    try:
        pg1, pg2 = net.host("pg1", 11), net.host("pg2", 12)
        redis_host = net.host("redis", 13)
        api_hosts = [net.host("api1", 21), net.host("api2", 22)]
        proxy = net.host("proxy", 30)
        worker_hosts = [net.host(f"w{i}", 41 + i) for i in range(3)]

        # the data: a primary, its synchronous standby, a PgBouncer beside each
        for name in ("pg1", "pg2"):
            (folder / name).mkdir()
        primary = PgNode(folder / "pg1", pg1.address, 5432, pg1.prefix).init_primary().start()
        standby = PgNode(folder / "pg2", pg2.address, 5432, pg2.prefix).init_standby(primary).start()
        standby.wait_streaming(primary)
        with psycopg.connect(primary.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE entrepot")
        for host in (pg1, pg2):
            conf = folder / f"pgbouncer-{host.name}.ini"
            conf.write_text(ini(6432, {"host": "127.0.0.1", "port": 5432, "dbname": "entrepot"}, 10, 5000,
                                listen=host.address).replace("auth_file = userlist.txt",
                                                             f"auth_file = {folder}/userlist.txt"))
            conf.chmod(0o644)
        (folder / "userlist.txt").write_text('"postgres" ""\n')
        (folder / "userlist.txt").chmod(0o644)
        for host in (pg1, pg2):
            host.start(["pgbouncer", "-u", "postgres", str(folder / f"pgbouncer-{host.name}.ini")],
                       folder / f"pgbouncer-{host.name}.log")
        redis_host.start(["redis-server", "--bind", redis_host.address, "--port", "6379", "--save", "",
                          "--appendonly", "no", "--protected-mode", "no"], folder / "redis.log")

        # the test's side of the bridge: mail and webhooks arrive here
        smtp_port = free_port()
        controller = Controller(sink, hostname=net.gateway, port=smtp_port)
        controller.start()
        receiver = Receiver(host=net.gateway).start()

        direct = multi_host_url([primary, standby], "entrepot", **FAST_FAIL)
        pooled = direct.replace(":5432", ":6432")
        subprocess.run([sys.executable, "-m", "service.runtime.cli", "migrate"], cwd=ROOT, check=True, capture_output=True,
                       env={**os.environ, "DATABASE_URL": direct})
        env = {
            **os.environ, "PYTHONPATH": str(ROOT),
            "DATABASE_URL": pooled, "ENTREPOT_PGBOUNCER": "1", "ENTREPOT_MIGRATE_DATABASE_URL": direct,
            "REDIS_URL": f"redis://{redis_host.address}:6379/0", "ENTREPOT_QUEUE": "entrepot",
            "ENTREPOT_SIGNING_KEY": base64.b64encode(os.urandom(32)).decode(),
            "ENTREPOT_WEBHOOK_KEY": base64.b64encode(os.urandom(32)).decode(),
            "ENTREPOT_SMTP_URL": f"smtp://{net.gateway}:{smtp_port}", "ENTREPOT_MAIL_WINDOW": "0",
            "ENTREPOT_WEBHOOK_ALLOW_PRIVATE": "1", "ENTREPOT_WEBHOOK_RETRY_SCHEDULE": "0,1,2,3,5,8",
            "ENTREPOT_FANOUT_PATIENCE": "1", "ENTREPOT_TIMER_GRACE": "1", "ENTREPOT_POOL_TIMEOUT": "3",
            "ENTREPOT_TRUSTED_PROXIES": "1", "ENTREPOT_PUBLIC_URL": f"http://{proxy.address}",
            "ENTREPOT_RATE_LIMIT_PER_IP": UNTHROTTLED, "ENTREPOT_RATE_LIMIT_PER_TOKEN": UNTHROTTLED,
            "ENTREPOT_AI_SECONDS": "0.1", "ENTREPOT_THREADS": "8",
        }
        for key in [k for k in env if k.startswith(("PROMETHEUS_", "OTEL_", "ENTREPOT_METRICS"))]:
            env.pop(key)
        for host in api_hosts:
            host.start([sys.executable, "-m", "uvicorn", "--factory", "api.asgi:create_asgi_app", "--host",
                        host.address, "--port", "8000", "--timeout-graceful-shutdown", "2"],
                       folder / f"{host.name}.log", cwd=ROOT, env=env)
        for host in worker_hosts:
            host.start([sys.executable, "-m", "workers", "--sweep-every", "2"], folder / f"{host.name}.log",
                       cwd=ROOT, env=env)
        proxy.start(["nginx", "-c", str(nginx_conf(folder, proxy.address, [h.address for h in api_hosts]))],
                    folder / "nginx.log")
        base = f"http://{proxy.address}"
        for host in api_hosts:
            wait_until(lambda h=host: requests.get(f"http://{h.address}:8000/v1/health/live", timeout=2).ok,
                       60, f"{host.name} serving")
        wait_until(lambda: requests.get(base + "/v1/health/ready", timeout=2).ok, 60, "ready through nginx")
        api = Api(base)

        # four players with verified mail addresses and webhooks
        players = []
        for n in range(4):
            email = f"p{n}-{uuid.uuid4().hex[:6]}@players.test"
            made = api.call("POST", "/v1/players", body={"name": f"P{n}", "email": email}).json()
            mail = wait_until(lambda e=email: [m for m in sink.messages if e in str(m["To"])], 30, "verification mail")
            token = text_of(mail[0]).split("/v1/email/verify/")[1].split()[0]
            assert api.call("POST", "/v1/players/me/email/verify", made["token"], {"token": token}).status_code == 200
            hook = api.call("POST", "/v1/players/me/webhooks", made["token"],
                            {"url": f"{receiver.url}/p{n}", "events": ["your_turn", "finished"]})
            assert hook.status_code == 201
            receiver.secrets[f"/p{n}"] = hook.json()["secret"]
            players.append({**made, "email": email})

        def new_game(a: dict, b: dict, time_control: dict | None = None) -> str:
            body = {"title": "kontor", "options": {"variant": "basic"},
                    "seats": [{"player_id": a["id"]}, {"player_id": b["id"]}]}
            if time_control:
                body["time_control"] = time_control
            game = api.call("POST", "/v1/games", a["token"], body).json()
            assert api.call("POST", f"/v1/games/{game['id']}/seats/1/accept", b["token"]).status_code == 200
            return game["id"]

        tables = [Table(api, new_game, players[:2]), Table(api, new_game, players[2:])]
        # nobody moves in these: the clock must end them, whichever worker is alive
        clocked = [new_game(players[1], players[2], {"per_move": "PT8S", "on_timeout": "forfeit"}),
                   new_game(players[3], players[0], {"per_move": "PT12S", "on_timeout": "forfeit"})]

        stop = threading.Event()
        threads = [threading.Thread(target=t.run, args=(stop,)) for t in tables]
        for thread in threads:
            thread.start()
        time.sleep(4)
        crashed = time.monotonic()
        pg1.kill(cable=True)  # the primary's machine dies
        time.sleep(1)
        promoted = time.monotonic()
        standby.promote()
        try:
            wait_until(lambda: any(t > crashed and s == 201 for t, s in api.statuses), 60, "a move after the promotion")
        except AssertionError:
            # the flake this test is marked for: say what the network held (issue 32's note)
            since = [s for t, s in api.statuses if t > crashed]
            logs = "".join(f"\n== {name} (its last lines)\n" + "\n".join(
                (folder / name).read_text(errors="replace").splitlines()[-12:])
                for name in ("error.log", "access.log", "nginx.log", "api1.log", "api2.log")
                if (folder / name).exists())
            logs += f"\n== the tables' threads alive: {[t.is_alive() for t in threads]}"
            with open(folder / "threads.txt", "w") as stacks:
                faulthandler.dump_traceback(stacks, all_threads=True)
            logs += "\n== this process's threads\n" + (folder / "threads.txt").read_text()[-6000:]
            raise AssertionError(f"no move after the promotion; answers since the crash: {since}\n"
                                 + net.diagnosis() + logs) from None
        failover = min(t for t, s in api.statuses if t > crashed and s == 201) - crashed
        after_promotion = failover - (promoted - crashed)
        time.sleep(2)
        worker_hosts[0].kill(cable=False)
        worker_killed = time.time()  # once its processes are gone: nothing of theirs arrives after
        api_killed = time.monotonic()
        api_hosts[0].kill(cable=False)
        time.sleep(5)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)

        for table in tables:  # the people stop: one resigns
            if api.call("GET", f"/v1/games/{table.game_id}").json()["status"] == "active":
                assert api.call("POST", f"/v1/games/{table.game_id}/resign", table.players[1]["token"],
                                {}).status_code == 201
        for game_id in clocked:
            game = wait_until(lambda g=game_id: (lambda j: j if j["status"] == "finished" else None)(
                api.call("GET", f"/v1/games/{g}").json()), 40, "a timeout")
            events = api.call("GET", f"/v1/games/{game_id}/events").json()["events"]
            assert [e["type"] for e in events].count("TimedOut") == 1, "the timeout did not fire once"
            assert game["result"]["reason"] == "timeout", game["result"]

        with psycopg.connect(standby.url("entrepot"), autocommit=True) as db:
            def settled():
                pending = db.execute("SELECT count(*) FROM webhook_deliveries WHERE state <> 'delivered'").fetchone()[0]
                unsent = db.execute("SELECT count(*) FROM mails_sent WHERE sent_at IS NULL AND dropped IS NULL"
                                    ).fetchone()[0]
                return pending == 0 and unsent == 0
            # a mail the killed worker host had claimed and not sent is claimed anew only
            # RESEND_AFTER_SECONDS after its claim (service/mail/mailer.py), then at the next
            # sweep (every 2 s here): the wait covers that window, counted from the kill
            patience = max(60.0, worker_killed + RESEND_AFTER_SECONDS + 30 - time.time())
            try:
                wait_until(settled, patience, "every webhook delivered and every mail sent")
            except AssertionError as err:
                left = (db.execute("SELECT state, attempts, last_error, next_attempt_at, lease_until"
                                   " FROM webhook_deliveries WHERE state <> 'delivered'").fetchall(),
                        db.execute("SELECT key, claimed_at, attempts FROM mails_sent"
                                   " WHERE sent_at IS NULL AND dropped IS NULL").fetchall())
                raise AssertionError(f"{err}; the worker host was killed at {worker_killed}; not settled "
                                     f"(webhook deliveries, mails): {left}") from None
            deliveries = [row[0] for row in db.execute("SELECT id::text FROM webhook_deliveries")]
            mails = [row[0] for row in db.execute("SELECT key FROM mails_sent WHERE sent_at IS NOT NULL")]
            claimed = [row[0] for row in db.execute("SELECT key FROM mails_sent")]

        verified = 0
        for game_id in [game_id for t in tables for game_id in t.acknowledged] + clocked:
            record = api.call("GET", f"/v1/games/{game_id}/export").json()
            path = folder / f"{game_id}.json"
            path.write_text(json.dumps(record))
            check = subprocess.run([sys.executable, "-m", "service.runtime.entry", "verify", str(path)], cwd=ROOT,
                                   capture_output=True, text=True)
            assert check.returncode == 0, check.stdout + check.stderr
            verified += 1
            recorded = [step["version"] for step in record["steps"]]
            assert len(recorded) == len(set(recorded)), "a version recorded twice"
            table = next((t for t in tables if game_id in t.acknowledged), None)
            if table is not None:
                # a move's answer gives the version after it: the next step's version, or the
                # last event's for the move that ended the game (played to its end in time)
                after = set(recorded[1:]) | {record["steps"][-1]["events"][-1]["seq"]}
                assert set(table.acknowledged[game_id]) <= after, "an acknowledged move was lost"

        webhook_ids = [r.headers.get("webhook-id") for r in receiver.received]
        assert all(r.verified for r in receiver.received)
        assert sorted(set(webhook_ids)) == sorted(f"msg_{d.replace('-', '')}" for d in deliveries)
        doubled_webhooks = killed_in_the_window(
            list(zip(webhook_ids, (r.at for r in receiver.received))), worker_killed, "webhook")
        domain = sink.messages[0]["Message-ID"].split("@", 1)[1].rstrip(">")
        message_ids = [str(m["Message-ID"]) for m in sink.messages]
        def message_id(key: str) -> str:
            return f"<{hashlib.sha256(key.encode()).hexdigest()[:40]}@{domain}>"

        # every mail recorded sent arrived; nothing arrived that was not claimed first
        assert {message_id(k) for k in mails} <= set(message_ids)
        assert set(message_ids) <= {message_id(k) for k in claimed}
        doubled_mails = killed_in_the_window(
            list(zip(message_ids, (m.received_at.timestamp() for m in sink.messages))), worker_killed, "mail")

        statuses = [s for _, s in api.statuses]
        moves = sum(len(versions) for t in tables for versions in t.acknowledged.values())
        # a request in flight on the API host when it died: nginx answers 502 (it may not
        # send a POST twice); the client retries it with its Idempotency-Key. In flight: sent
        # up to 2 s before the kill (a busy machine's command takes that long) or just after
        def in_flight(t: float) -> bool:
            return api_killed - 2 <= t < api_killed + 3

        errors = sum(s >= 500 and s != 503 and not (s == 502 and in_flight(t)) for t, s in api.statuses)
        cut_off = sum(s == 502 and in_flight(t) for t, s in api.statuses)
        assert cut_off <= len(tables), "more 502s than requests in flight"
        print(f"\nmulti-host: {moves} moves acknowledged, failover {failover:.2f} s (from the primary's death to"
              f" the first move sent after it answered 201; {after_promotion:.2f} s after the promotion), {statuses.count(503)} answers 503 (Retry-After, retried), {cut_off} answers 502 (in flight on"
              f" the API host killed, retried), {errors} other 5xx,"
              f" {len(set(webhook_ids))} webhooks ({doubled_webhooks} doubled), {len(set(message_ids))} mails"
              f" ({doubled_mails} doubled), {verified} exports verified")
        assert moves > 0 and errors == 0, sorted(set(statuses))
        # the killed worker host ran one worker process, which runs one job at a time: at
        # most one mail or webhook can have been in its window
        assert doubled_webhooks + doubled_mails <= 1, "more repeats than the one killed worker could leave"
    finally:
        stop_all = [receiver.stop] if receiver else []
        if controller is not None:
            stop_all.append(controller.stop)
        for stop_one in stop_all:
            stop_one()
        net.close()
        if os.environ.get("ENTREPOT_KEEP_MULTIHOST"):
            print(f"logs kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
