"""pyspark_pykafka.worker_python's .pth line (issue 33): Spark's Python workers get the driver's
interpreter unless the user chose one, and import the installed pyspark rather than its zip copy."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from pyspark_pykafka.worker_python import PTH_NAME, install_pth, pth_line

PURELIB = Path(sysconfig.get_paths()["purelib"])


def _run(code: str, **env: str) -> str:
    base = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**base, **env}, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.fixture(scope="module", autouse=True)
def pth_installed() -> None:
    # scripts/setup.sh writes it; a venv built otherwise gets it here (the same file)
    if not (PURELIB / PTH_NAME).exists() or (PURELIB / PTH_NAME).read_text() != pth_line():
        install_pth()


def test_pyspark_import_sets_the_driver_interpreter_for_workers() -> None:
    code = "import os; a = os.environ.get('PYSPARK_PYTHON'); import pyspark; print(a, os.environ['PYSPARK_PYTHON'])"
    assert _run(code) == f"None {sys.executable}"  # only once pyspark is imported


def test_a_users_choice_wins() -> None:
    code = "import os, pyspark; print(os.environ.get('PYSPARK_PYTHON'), os.environ.get('PYSPARK_DRIVER_PYTHON'))"
    assert _run(code, PYSPARK_PYTHON="/opt/py/bin/python3") == "/opt/py/bin/python3 None"
    assert _run(code, PYSPARK_DRIVER_PYTHON="/opt/py/bin/python3") == "None /opt/py/bin/python3"


def test_workers_import_the_installed_pyspark_not_the_zip() -> None:
    import pyspark

    home = Path(pyspark.__file__).parent
    zips = [str(home / "python" / "lib" / "pyspark.zip"), *map(str, (home / "python" / "lib").glob("py4j-*.zip"))]
    if not Path(zips[0]).exists():
        pytest.skip(f"{zips[0]} is not there (pyspark not pip-installed)")
    # as Spark starts its workers: the zips first on PYTHONPATH
    code = "import sys, pyspark; print(pyspark.__file__); print(any(p.endswith('pyspark.zip') for p in sys.path))"
    assert _run(code, PYTHONPATH=os.pathsep.join(zips)).splitlines() == [str(home / "__init__.py"), "False"]


def test_a_pyspark_zip_of_another_spark_home_stays(tmp_path: Path) -> None:
    other = tmp_path / "spark" / "python" / "lib" / "pyspark.zip"
    other.parent.mkdir(parents=True)
    other.write_bytes(b"")
    assert _run("import sys; print(sys.path[1])", PYTHONPATH=str(other)) == str(other)
