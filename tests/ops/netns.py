"""Hosts on one machine: Linux network namespaces on a bridge (root needed), each with
its own address, loopback and processes; a host is killed as a machine dies (every
process at once, its link down)."""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass, field


def sh(*cmd: str) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(cmd)}: {done.stderr}"


def _run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.stdout + done.stderr


@dataclass
class Host:
    name: str
    ns: str
    address: str
    link: str  # the bridge's end of its cable
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def prefix(self) -> tuple[str, ...]:
        return ("ip", "netns", "exec", self.ns)

    def start(self, cmd: list[str], log_path, **kwargs) -> subprocess.Popen:
        log = open(log_path, "ab")
        process = subprocess.Popen([*self.prefix, *cmd], stdout=log, stderr=subprocess.STDOUT, **kwargs)
        self.processes.append(process)
        return process

    def pids(self) -> list[int]:
        done = subprocess.run(["ip", "netns", "pids", self.ns], capture_output=True, text=True)
        return [int(p) for p in done.stdout.split()]

    def kill(self, cable: bool = True) -> None:
        """The machine dies: every process of it at once; ``cable``: its link goes down too
        (nobody hears a reset: peers find out by their timeouts)."""
        if cable:
            sh("ip", "link", "set", self.link, "down")
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


class Network:
    def __init__(self, tag: str, subnet: str):
        self.tag, self.subnet = tag, subnet
        self.bridge = f"e31b{tag}"
        self.hosts: list[Host] = []
        sh("ip", "link", "add", self.bridge, "type", "bridge")
        sh("ip", "addr", "add", f"{subnet}.1/24", "dev", self.bridge)
        sh("ip", "link", "set", self.bridge, "up")

    @property
    def gateway(self) -> str:
        """This (the test's) side of the bridge."""
        return f"{self.subnet}.1"

    def host(self, name: str, last: int) -> Host:
        ns, outer, inner = f"e31-{self.tag}-{name}", f"e31{self.tag}{last}h", f"e31{self.tag}{last}n"
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
        sh("ip", "link", "set", inner, "netns", ns)
        sh("ip", "link", "set", outer, "master", self.bridge, "up")
        sh("ip", "-n", ns, "addr", "add", f"{self.subnet}.{last}/24", "dev", inner)
        sh("ip", "-n", ns, "link", "set", inner, "up")
        sh("ip", "-n", ns, "link", "set", "lo", "up")
        host = Host(name, ns, f"{self.subnet}.{last}", outer)
        self.hosts.append(host)
        return host

    def diagnosis(self) -> str:
        """What the hosts' network holds now (neighbour caches, sockets, links): for a
        failure's message, as a machine's operator would look."""
        parts = []
        for title, cmd in [("the bridge", ["ip", "-br", "link", "show", self.bridge]),
                           ("bridge links", ["ip", "-br", "link", "show", "master", self.bridge]),
                           ("bridge fdb", ["bridge", "fdb", "show", "br", self.bridge]),
                           ("gateway neighbours", ["ip", "neigh", "show", "dev", self.bridge]),
                           ("routes to the subnet", ["ip", "route", "get", f"{self.subnet}.30"])]:
            parts.append(f"== {title}\n" + _run(cmd))
        for host in self.hosts:
            parts.append(f"== {host.name}: neighbours\n" + _run([*host.prefix, "ip", "neigh"]))
            sockets = _run([*host.prefix, "ss", "-tano"]).splitlines()
            parts.append(f"== {host.name}: sockets ({len(sockets) - 1})\n" + "\n".join(sockets[:25]))
        return "\n".join(parts)

    def close(self) -> None:
        for host in self.hosts:
            for pid in host.pids():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            for process in host.processes:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
            subprocess.run(["ip", "link", "del", host.link], capture_output=True)
            subprocess.run(["ip", "netns", "del", host.ns], capture_output=True)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True)
