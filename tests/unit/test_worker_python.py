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
    code = (
        "import sys, importlib, pyspark, py4j; importlib.invalidate_caches(); print(pyspark.__file__);"
        " print(py4j.__file__); print([p for p in [*sys.path, *sys.path_importer_cache] if p.endswith('.zip')"
        " and '/pyspark/python/lib/' in p])"
    )
    lines = _run(code, PYTHONPATH=os.pathsep.join(zips)).splitlines()
    assert lines[0] == str(home / "__init__.py")
    # pip's pyspark pins py4j: the zip's version is installed beside it, so the zip goes too, and neither
    # zip is left in the importer cache (invalidate_caches() would re-read it)
    assert (home.parent / f"{Path(zips[1]).name.removesuffix('-src.zip')}.dist-info").is_dir()
    assert lines[1:] == [str(home.parent / "py4j" / "__init__.py"), "[]"]


def test_a_py4j_zip_without_the_same_installed_version_stays(tmp_path: Path) -> None:
    import pyspark

    home = Path(pyspark.__file__).parent
    if not (home / "python" / "lib" / "pyspark.zip").exists():
        pytest.skip("pyspark not pip-installed")
    other = home / "python" / "lib" / "py4j-0.0.1-src.zip"  # no py4j-0.0.1.dist-info beside pyspark
    code = f"import sys; print({str(other)!r} in sys.path)"
    assert _run(code, PYTHONPATH=str(other)) == "True"


def test_a_pyspark_zip_of_another_spark_home_stays(tmp_path: Path) -> None:
    other = tmp_path / "spark" / "python" / "lib" / "pyspark.zip"
    other.parent.mkdir(parents=True)
    other.write_bytes(b"")
    assert _run("import sys; print(sys.path[1])", PYTHONPATH=str(other)) == str(other)
