"""The committed codecs are exactly what the generator produces from the specs it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_wire.protocol import generator


def _spec_dir() -> Path | None:
    try:
        spec_dir = generator.default_spec_dir()
    except ModuleNotFoundError:  # kafka-python (which ships the JSON specs) is not installed
        return None
    return spec_dir if spec_dir.is_dir() and any(spec_dir.glob("*.json")) else None


SPEC_DIR = _spec_dir()
needs_specs = pytest.mark.skipif(
    SPEC_DIR is None,
    reason="kafka-python's JSON message specs (kafka/protocol/schemas/resources) are not installed",
)


@needs_specs
def test_regenerating_is_a_no_op(capsys: pytest.CaptureFixture[str]) -> None:
    assert generator.main(["--check"]) == 0, capsys.readouterr().err


@needs_specs
def test_check_detects_stale_output(tmp_path: Path) -> None:
    out = tmp_path / "messages"
    assert generator.main(["--out-dir", str(out)]) == 0
    assert generator.main(["--check", "--out-dir", str(out)]) == 0
    victim = out / "metadata_request.py"
    victim.write_text(victim.read_text() + "# edited by hand\n")
    assert generator.main(["--check", "--out-dir", str(out)]) == 1
    victim.unlink()
    assert generator.main(["--check", "--out-dir", str(out)]) == 1
    assert generator.main(["--out-dir", str(out)]) == 0
    (out / "leftover.py").write_text("")
    assert generator.main(["--check", "--out-dir", str(out)]) == 1


@needs_specs
def test_generated_output_compiles() -> None:
    assert SPEC_DIR is not None
    files = generator.generate(SPEC_DIR)
    assert "__init__.py" in files
    assert len(files) == len(list(SPEC_DIR.glob("*.json"))) + 1
    for name, text in files.items():
        compile(text, name, "exec")
