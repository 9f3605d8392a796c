"""Spark's Python workers run the driver's interpreter unless the user chose one, and import the
installed pyspark.

Spark starts the Python workers that look up and run Python data sources with the interpreter named
by the JVM's environment: ``PYSPARK_DRIVER_PYTHON``, else ``PYSPARK_PYTHON``, else ``python3`` from
PATH (``org.apache.spark.api.python.PythonUtils.defaultPythonExec``; the ``spark.pyspark.python``
conf does not reach that lookup). A job run as ``.venv/bin/python job.py`` without activating the
venv therefore gets workers of another interpreter, which does not have ``pyspark_pykafka``:
``format("pykafka")`` fails with DATA_SOURCE_NOT_FOUND.

The fix has to run in the driver before its JVM starts, in jobs that never import us: a ``.pth``
file in site-packages (Python runs its ``import`` lines at every start). It only adds a finder to
``sys.meta_path``: when the process imports ``pyspark`` and neither variable is set, it sets
``PYSPARK_PYTHON`` to ``sys.executable``, which the JVM then inherits (the usual manual fix, done for
the user). Processes that never import pyspark are not touched; a user's own setting always wins.

The same line also drops ``SPARK_HOME/python/lib/pyspark.zip`` from ``sys.path`` when SPARK_HOME is
the pip-installed ``pyspark`` package of this very site-packages (the zip holds the same files):
Spark puts the zip first on its Python workers' PYTHONPATH, and imports from it have no bytecode.
Spark waits a hard-coded 10 s (``PythonWorkerFactory.createSimpleWorker``, no config) for a new
non-daemon worker -- the Python data source planner and a stream's ``python_streaming_source_runner``
-- to import pyspark and connect back; from the zip that import took 4.9-5.8 s under a load of 8 on
2 cores (0.7-0.9 s quiet), from the installed package 1.1-1.3 s: under CPU load, streaming queries
died at start with "Python worker failed to connect back" (issue 33). Spark's ``py4j-<v>-src.zip`` goes too
when the same py4j version is installed there (compiled from the zip at every runner start otherwise),
and both leave ``sys.path_importer_cache``: ~90 ms of each streaming query's source runner start.

A wheel install ships the ``.pth`` (setup.py); an editable install cannot, so ``scripts/setup.sh``
writes it with ``python -m pyspark_pykafka.worker_python --install-pth``. Nothing here imports pyspark.
"""

from __future__ import annotations

import argparse
import sys
import sysconfig
from pathlib import Path

PTH_NAME = "pykafka-pyspark-python.pth"
ENV_VARS = ("PYSPARK_DRIVER_PYTHON", "PYSPARK_PYTHON")

# Run by site.py from the .pth line (exec'd in a function scope, hence everything local).
HOOK_SOURCE = """\
def _pykafka_pyspark_python():
    import os, sys
    names = ("PYSPARK_DRIVER_PYTHON", "PYSPARK_PYTHON")
    if any(os.environ.get(n) for n in names) or not sys.executable:
        return

    class _DriverPythonForWorkers:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name == "pyspark":
                sys.meta_path.remove(_DriverPythonForWorkers)
                if not any(os.environ.get(n) for n in names):
                    os.environ["PYSPARK_PYTHON"] = sys.executable
            return None

    sys.meta_path.insert(0, _DriverPythonForWorkers)


def _pykafka_installed_pyspark_first():
    import os, sys
    for entry in list(sys.path):
        parts = entry.replace(os.sep, "/").rsplit("/", 4)
        if len(parts) != 5 or parts[1:4] != ["pyspark", "python", "lib"] or parts[0] not in sys.path:
            continue
        name = parts[4]
        if name == "pyspark.zip":
            pass
        elif name.startswith("py4j-") and name.endswith("-src.zip"):
            # the same py4j version installed beside pyspark: its bytecode instead of compiling the zip
            if not os.path.isdir(os.path.join(parts[0], name[: -len("-src.zip")] + ".dist-info")):
                continue
        else:
            continue
        sys.path.remove(entry)
        # its zipimporter is cached already: without this, importlib.invalidate_caches() (pyspark's
        # setup_spark_files) re-reads the whole zip's directory in every source runner
        sys.path_importer_cache.pop(entry, None)


_pykafka_installed_pyspark_first()
_pykafka_pyspark_python()
"""


def pth_line() -> str:
    """The one line of the .pth file (site.py executes lines that start with `import`)."""
    return f"import sys; exec({HOOK_SOURCE!r})\n"


def install_pth(site_dir: str | None = None) -> Path:
    """Write the .pth into `site_dir` (default: this interpreter's purelib); returns its path."""
    target = Path(site_dir or sysconfig.get_paths()["purelib"]) / PTH_NAME
    line = pth_line()
    if not target.exists() or target.read_text() != line:
        target.write_text(line)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install-pth", action="store_true", help=f"write {PTH_NAME} into site-packages")
    parser.add_argument("--site-dir", default=None, help="where to write it (default: this interpreter's purelib)")
    args = parser.parse_args(argv)
    if not args.install_pth:
        parser.print_help()
        return 2
    print(install_pth(args.site_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
