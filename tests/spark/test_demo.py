"""The README's first command runs examples/demo.py (scripts/demo.sh: setup, then `python -m examples.demo`).
Run here as that script runs it, smaller: a regression in the demo would otherwise reach a first-time user
before any test saw it. The demo kills its Spark query with SIGKILL mid-stream and restarts it from the
checkpoint; the test checks that the kill did land mid-stream and that the demo's verdict is exactly once."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from examples.query_process import REPO_ROOT
from tests.spark.proc_helpers import communicate_in_own_session

pytestmark = pytest.mark.timeout(480)

RECORDS = 1200
PARTITIONS = 3


def test_the_demo_lands_every_record_once_through_a_kill(tmp_path: Path) -> None:
    workdir = tmp_path / "demo"
    cmd = [sys.executable, "-m", "examples.demo", "--records", str(RECORDS), "--partitions", str(PARTITIONS)]
    cmd += ["--workdir", str(workdir)]
    returncode, out, _ = communicate_in_own_session(cmd, 420, cwd=REPO_ROOT, stderr=subprocess.STDOUT, text=True)
    log = workdir / "query.log"
    detail = out[-4000:] + (f"\n--- query.log ---\n{log.read_text(errors='replace')[-4000:]}" if log.exists() else "")
    assert returncode == 0, detail
    assert f"produced {RECORDS} events" in out, detail
    killed = re.search(r"SIGKILL after batch (\d+): (\d+)/(\d+) records committed so far", out)
    assert killed is not None, detail
    batch, committed_before, total = (int(g) for g in killed.groups())
    # the crash is the point of the demo: it must land after some batches and before the end
    assert batch >= 2 and 0 < committed_before < total == RECORDS, detail
    assert f"rows: {RECORDS} (produced {RECORDS}); duplicates: 0" in out, detail
    hw_lines = re.findall(r"partition (\d+): next offset (\d+)  \(broker high watermark (\d+)\)", out)
    assert len(hw_lines) == PARTITIONS and all(offset == hw for _, offset, hw in hw_lines), detail
    assert sum(int(hw) for _, _, hw in hw_lines) == RECORDS, detail
    assert f"independent reader (DuckDB delta extension): rows {RECORDS}, distinct positions {RECORDS}" in out, detail
    assert "OK: every produced record is in the table exactly once" in out, detail
