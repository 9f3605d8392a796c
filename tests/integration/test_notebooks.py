"""examples/notebooks run top to bottom (nbclient, fixed timeout) and leave PNG plots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("pyspark")

NOTEBOOKS = Path(__file__).resolve().parents[2] / "examples" / "notebooks"
TIMEOUT = 240  # per cell, seconds
# what a notebook needs beyond the `notebooks` extra: (module, extra that installs it)
NEEDS: dict[str, tuple[tuple[str, str], ...]] = {
    "avro.ipynb": (("fastavro", "avro"), ("confluent_kafka.schema_registry.avro", "avro-test")),
}


def execute(path: Path, cwd: Path) -> object:
    nb = nbformat.read(path, as_version=4)
    # the kernel is a child process: it sees this tree first (a worktree shadows the installed one)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(NOTEBOOKS.parents[1]), os.environ.get("PYTHONPATH", "")) if p
    )
    client = nbclient.NotebookClient(
        nb, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    )
    client.execute()
    return nb


@pytest.mark.timeout(400)
@pytest.mark.parametrize("name", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")))
def test_notebook_runs_and_plots(name: str, tmp_path: Path) -> None:
    for module, extra in NEEDS.get(name, ()):
        pytest.importorskip(module, reason=f"{name} needs {module} (the `{extra}` extra)")
    nb = execute(NOTEBOOKS / name, tmp_path)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    assert pngs, f"{name} left no PNG plot"


def test_every_notebook_is_linked_from_the_readme() -> None:
    readme = (NOTEBOOKS.parents[1] / "README.md").read_text(encoding="utf-8")
    names = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert {"quickstart.ipynb", "group_mode.ipynb", "avro.ipynb"} <= set(names)
    assert [n for n in names if f"(examples/notebooks/{n})" not in readme] == []
