"""Pack the project's Python packages into one zip for Spark's ``--py-files`` / ``spark.submit.pyFiles``
(or a Spark Connect client's ``spark.addArtifacts(path, pyfile=True)``).

    python scripts/pack_pyfiles.py                  # -> dist/pykafka_suite-<version>.zip
    spark-submit --master spark://host:7077 --py-files dist/pykafka_suite-0.1.0.zip app.py

The zip holds exactly the packages ``pyproject.toml`` installs (``[tool.setuptools.packages.find]``
``include``), sources only (no ``__pycache__``), with the packages at the zip's root: Spark puts the zip
on ``sys.path`` of the driver and of every Python worker (executors and the driver's planner workers),
and pyspark's data source auto-discovery (``pkgutil.iter_modules()``) sees ``pyspark_pykafka`` and
``pyspark_pykafka_delta`` inside it. Third-party dependencies (pyarrow, deltalake, confluent-kafka, ...)
are not in the zip: install them on the workers, or ship a packed virtualenv with ``spark.archives``.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def package_patterns(root: Path = ROOT) -> tuple[str, list[str]]:
    """(version, include patterns) from pyproject.toml."""
    meta = tomllib.loads((root / "pyproject.toml").read_text())
    return meta["project"]["version"], meta["tool"]["setuptools"]["packages"]["find"]["include"]


def pack(out: Path | None = None, root: Path = ROOT) -> Path:
    """Write the zip and return its path (default ``<root>/dist/pykafka_suite-<version>.zip``)."""
    version, patterns = package_patterns(root)
    out = out or root / "dist" / f"pykafka_suite-{version}.zip"
    out.parent.mkdir(parents=True, exist_ok=True)
    tops = sorted(
        p.name
        for p in root.iterdir()
        if p.is_dir() and (p / "__init__.py").exists() and any(fnmatch.fnmatch(p.name, pat) for pat in patterns)
    )
    if not tops:
        raise SystemExit(f"no package of {patterns} found under {root}")
    tmp = out.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for top in tops:
            for path in sorted((root / top).rglob("*")):
                rel = path.relative_to(root)
                if "__pycache__" in rel.parts or not path.is_file() or path.suffix in {".pyc", ".pyo"}:
                    continue
                # only files that belong to the package: sources and package data next to them
                zf.write(path, rel.as_posix())
    tmp.replace(out)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=None, help="zip to write (default dist/pykafka_suite-<version>.zip)")
    args = p.parse_args(argv)
    print(pack(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
