"""Test hosts as Linux network namespaces (issue 32): one namespace per host, each with its own address on a
private bridge, so a test can cut one process off the network for real (Jepsen runs one node per host).

    with TestHosts(["c0", "c1", "c2"]) as hosts:
        hosts.address("c0")                  # 198.18.N.10: listen here
        argv = hosts.wrap("c0", [sys.executable, "-m", ...])   # run inside c0's namespace
        hosts.isolate("c0")                  # c0's link down: every packet to or from it is dropped
        hosts.heal("c0")
        hosts.cut("c0", "c1")                # only c0 <-> c1 dropped (a bridge, majority/minority groups)
        hosts.heal()                         # every isolation and cut undone

Layout: a bridge `pk<tag>b` in the root namespace holds 198.18.N.1/24 (RFC 2544's benchmark range, never
routed), so processes left in the root namespace (brokers, the test's clients) reach every host through it;
host i is namespace `pk<tag>-<name>` with 198.18.N.(10+i) on a veth whose other end is a bridge port.
Isolating a host sets that bridge port down: frames to and from it are dropped silently (TCP sees
silence, not resets), the host's own processes keep running and keep their state. Cutting two hosts apart
(`cut`) gives each, inside its namespace, a permanent neighbour entry with an unused MAC address for the
other's address: their frames to each other go nowhere (the bridge floods them to no taker), both directions
silent, while both still reach every other host and the root namespace. (The machine has no iptables/nft,
and tc's drop action is not in its kernel.)

Cleanup: `close()` (also on `__exit__`, and at interpreter exit) deletes the namespaces (which removes
their veths) and the bridge. Names carry the creating process's pid, so a later run deletes what a killed
run left behind (`sweep_stale`). Needs root and iproute2; `available()` says whether this machine can.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
from pathlib import Path

PREFIX = "pk"
_NOWHERE = "02:00:00:00:00:00"  # a locally administered MAC no interface has: frames to it are dropped
NETNS_DIR = Path("/var/run/netns")


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=10)


def available() -> str | None:
    """None when this machine can make test hosts, else why not (a skip reason)."""
    if shutil.which("ip") is None:
        return "iproute2 (`ip`) is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"{PREFIX}{os.getpid()}-probe"
    r = _ip("netns", "add", probe, check=False)
    if r.returncode != 0:
        return f"cannot create a network namespace: {r.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale() -> list[str]:
    """Delete namespaces and bridges a killed test run left behind (their creator's pid is gone)."""
    removed: list[str] = []
    names = [p.name for p in NETNS_DIR.iterdir()] if NETNS_DIR.exists() else []
    links = _ip("-o", "link", "show", "type", "bridge", check=False).stdout.split("\n")
    bridges = [line.split(":")[1].strip().split("@")[0] for line in links if line.count(":") >= 2]
    for name in names + bridges:
        if not name.startswith(PREFIX):
            continue
        digits = name[len(PREFIX) :].split("-")[0].rstrip("b")
        if not digits.isdigit() or _pid_alive(int(digits)):
            continue
        if name in names:
            _ip("netns", "del", name, check=False)
        else:
            _ip("link", "del", name, check=False)
        removed.append(name)
    return removed


def _free_subnet() -> int:
    """A 198.18.N.0/24 no interface on this machine uses (several test runs may be up at once)."""
    used = _ip("-4", "-o", "addr", "show", check=False).stdout
    start = os.getpid() % 200
    for k in range(250):
        n = (start + k) % 250 + 1
        if f"198.18.{n}." not in used:
            return n
    raise RuntimeError("no free 198.18.N.0/24 subnet for test hosts")


class TestHosts:
    """A private bridge and one network namespace per named host (see the module docstring)."""

    __test__ = False  # not a pytest class

    def __init__(self, names: list[str]) -> None:
        if len(set(names)) != len(names) or not names:
            raise ValueError(f"host names must be unique and non-empty, got {names}")
        sweep_stale()
        self.tag = f"{PREFIX}{os.getpid()}"
        self.bridge = f"{self.tag}b"
        self.names = list(names)
        self.subnet = _free_subnet()
        self._addresses = {name: f"198.18.{self.subnet}.{10 + i}" for i, name in enumerate(names)}
        self._ports = {name: f"{self.tag}h{i}" for i, name in enumerate(names)}  # bridge-side veth (<= 15 chars)
        self.isolated: set[str] = set()
        self.cuts: set[frozenset[str]] = set()
        self._closed = False
        atexit.register(self.close)
        try:
            self._create()
        except BaseException:
            self.close()
            raise

    def _create(self) -> None:
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        for i, name in enumerate(self.names):
            ns, port, inner = self.namespace(name), self._ports[name], f"{self.tag}n{i}"
            _ip("netns", "add", ns)
            _ip("link", "add", port, "type", "veth", "peer", "name", inner)
            _ip("link", "set", inner, "netns", ns)
            _ip("link", "set", port, "master", self.bridge, "up")
            _ip("-n", ns, "addr", "add", f"{self._addresses[name]}/24", "dev", inner)
            _ip("-n", ns, "link", "set", inner, "up")
            _ip("-n", ns, "link", "set", "lo", "up")

    @property
    def gateway(self) -> str:
        """The root namespace's address on the bridge (where brokers and the test's clients are)."""
        return f"198.18.{self.subnet}.1"

    def namespace(self, name: str) -> str:
        if name not in self._addresses:
            raise KeyError(f"unknown test host {name!r}; the hosts are {self.names}")
        return f"{self.tag}-{name}"

    def address(self, name: str) -> str:
        self.namespace(name)
        return self._addresses[name]

    def wrap(self, name: str, argv: list[str]) -> list[str]:
        """`argv` run inside the host's namespace (`ip netns exec` execs it: same pid, same pipes)."""
        return ["ip", "netns", "exec", self.namespace(name), *argv]

    def isolate(self, name: str) -> None:
        """Cut the host off from every other host and the root namespace (both directions)."""
        self.namespace(name)
        _ip("link", "set", self._ports[name], "down")
        self.isolated.add(name)

    def cut(self, a: str, b: str) -> None:
        """Drop every packet between hosts `a` and `b` (both directions); each still reaches the others."""
        if a == b:
            raise ValueError(f"cannot cut host {a!r} from itself")
        for x, y in ((a, b), (b, a)):
            dev = f"{self.tag}n{self.names.index(x)}"
            neigh = [self.address(y), "lladdr", _NOWHERE, "dev", dev, "nud", "permanent"]
            _ip("-n", self.namespace(x), "neigh", "replace", *neigh)
        self.cuts.add(frozenset((a, b)))

    def mend(self, a: str, b: str) -> None:
        """Undo `cut(a, b)`: the neighbour entries go, ARP finds the real addresses again."""
        for x, y in ((a, b), (b, a)):
            dev = f"{self.tag}n{self.names.index(x)}"
            _ip("-n", self.namespace(x), "neigh", "del", self.address(y), "dev", dev, check=False)
        self.cuts.discard(frozenset((a, b)))

    def partition(self, *groups: list[str]) -> None:
        """Cut every host from every host of another group (hosts in no group keep all their links)."""
        for i, g in enumerate(groups):
            for other in groups[i + 1 :]:
                for a in g:
                    for b in other:
                        self.cut(a, b)

    def heal(self, name: str | None = None) -> None:
        """Reconnect one host, or every isolated one and every cut."""
        for n in [name] if name is not None else sorted(self.isolated):
            self.namespace(n)
            _ip("link", "set", self._ports[n], "up")
            self.isolated.discard(n)
        if name is None:
            for pair in list(self.cuts):
                self.mend(*sorted(pair))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for name in self.names:
            _ip("netns", "del", self.namespace(name), check=False)  # removes its veth pair too
            _ip("link", "del", self._ports[name], check=False)
        _ip("link", "del", self.bridge, check=False)
        atexit.unregister(self.close)

    def __enter__(self) -> TestHosts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["TestHosts", "available", "sweep_stale"]
