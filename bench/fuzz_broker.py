"""Long fuzzing run against a broker process (issue 22): structured requests of every API key and
version we advertise (hypothesis, from Kafka's JSON specs) plus byte-level mutations, while a
bystander producer writes and is verified at the end.

    python bench/fuzz_broker.py --frames 100000

The broker runs in its own process (`python -m broker_embedded`), so the numbers are not the
fuzzer's GIL: it reports frames/s, the broker's peak RSS, the bystander's produce latency, and
fails (exit 1) on any traceback in the broker's log, a bystander problem, or RSS past --max-rss-mb.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from broker_embedded import apis  # noqa: E402
from broker_embedded.versions import advertised_versions  # noqa: E402
from tests.integration import fuzz_frames as fz  # noqa: E402
from tests.integration import wire_util as w  # noqa: E402


def broker_rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=20000)
    p.add_argument("--mutations", type=int, default=3, help="mutated copies sent after each valid frame")
    p.add_argument("--seed", type=int, default=22)
    p.add_argument("--max-rss-mb", type=float, default=600)
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE", help="a broker config")
    args = p.parse_args(argv)

    configs = {**fz.broker_configs(), **dict(o.split("=", 1) for o in args.override)}
    overrides = [f"--override={k}={v}" for k, v in configs.items()]
    with w.BrokerProcess("--log-level", "WARNING", *overrides) as broker:
        assert broker.proc is not None and broker.bootstrap is not None
        pid = broker.proc.pid
        peak = [broker_rss_mb(pid)]
        stop = threading.Event()

        def sample() -> None:
            while not stop.wait(0.5):
                peak[0] = max(peak[0], broker_rss_mb(pid))

        threading.Thread(target=sample, daemon=True).start()
        bystander = fz.Bystander(broker.bootstrap).start()
        sender = fz.FrameSender(*w.host_port(broker.bootstrap))
        rng = random.Random(args.seed)
        start = time.monotonic()

        @settings(
            max_examples=max(1, args.frames // (1 + args.mutations)),
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(frame=fz.valid_frames(advertised_versions(set(apis.HANDLERS))))
        def send(frame: bytes) -> None:
            sender.send(frame)
            for _ in range(args.mutations):
                sender.send(fz.mutate(frame, rng))
            if broker.proc is not None and broker.proc.poll() is not None:
                raise SystemExit(f"the broker exited with {broker.proc.returncode}")

        try:
            send()
        finally:
            sender.close()
        elapsed = time.monotonic() - start
        time.sleep(1)
        bystander.stop()
        problems = bystander.verify()
        stop.set()
        rc = broker.terminate(timeout=60)
        stderr = broker.stderr
    lat = sorted(bystander.latencies)
    p50 = lat[len(lat) // 2] * 1000 if lat else -1
    p99 = lat[int(len(lat) * 0.99)] * 1000 if lat else -1
    tracebacks = stderr.count("Traceback")
    print(
        f"{sender.frames_sent} frames in {elapsed:.1f}s ({sender.frames_sent / elapsed:.0f}/s), "
        f"{sender.connections} connections, {sender.closed_by_broker} closed by the broker\n"
        f"broker peak RSS {peak[0]:.0f} MB; bystander {len(bystander.acked)} acked, produce p50 {p50:.1f} ms "
        f"p99 {p99:.1f} ms; tracebacks {tracebacks}; SIGTERM exit {rc}"
    )
    failed = bool(tracebacks or problems or rc != 0 or peak[0] > args.max_rss_mb)
    if tracebacks:
        i = stderr.index("Traceback")
        print(stderr[max(0, i - 300) : i + 3000], file=sys.stderr)
    if problems:
        print("bystander:", problems, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
