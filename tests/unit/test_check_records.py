"""`kafka_wire.records.check_records` (the produce path's walk of a batch's records): the C walk
and the pure-Python fallback refuse the same mangled batches, and pass every well-formed one."""

from __future__ import annotations

import random

import pytest

from kafka_wire import records as rec
from kafka_wire.errors import CorruptRecordError
from kafka_wire.records import BATCH_HEADER_SIZE, build_batch, check_records, parse_batch_header

# the C walk is compared with the Python one; bounded decompression needs no extension
needs_native = pytest.mark.skipif(rec.native_records is None, reason="kafka_wire._columnar_ext is not built")


def _records(
    rng: random.Random, n: int
) -> list[tuple[int, bytes | None, bytes | None, list[tuple[str, bytes | None]]]]:
    out = []
    for i in range(n):
        key = None if rng.random() < 0.2 else rng.randbytes(rng.randrange(0, 40))
        value = None if rng.random() < 0.1 else rng.randbytes(rng.choice([0, 5, 100, 300, 9000]))
        headers = [(f"h{j}", rng.choice([None, b"", b"x" * 3])) for j in range(rng.choice([0, 0, 0, 2]))]
        out.append((1_700_000_000_000 + i, key, value, headers))
    return out


def _verdict(batch: bytes | bytearray) -> str:
    """Either "refused", or "ok" and how many records have no key (what a compacted topic refuses)."""
    try:
        keyless = check_records(batch, 0, parse_batch_header(batch, 0))
    except CorruptRecordError:
        return "refused"
    return f"ok, {keyless} keyless"


@needs_native
@pytest.mark.parametrize("codec", [0, 1, 4])
def test_native_and_python_agree_on_mangled_batches(codec: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(codec)
    refused = 0
    for trial in range(300):
        records = _records(rng, rng.randrange(1, 12))
        batch = bytearray(build_batch(records, compression=codec))
        assert _verdict(batch) == f"ok, {sum(k is None for _, k, _, _ in records)} keyless"
        mangled = bytearray(batch)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(BATCH_HEADER_SIZE, len(mangled))
            mangled[at] = rng.randrange(256)
        if rng.random() < 0.2:  # the declared record count disagrees with the records
            mangled[57:61] = (int.from_bytes(mangled[57:61], "big") + rng.choice([-1, 1])).to_bytes(
                4, "big", signed=True
            )
        native = _verdict(mangled)
        with monkeypatch.context() as m:
            m.setattr(rec, "native_records", None)
            python = _verdict(mangled)
        assert native == python, (trial, native, python)
        refused += native == "refused"  # a mangled batch that passes: its key count agrees too
    assert refused > 50, refused  # a mutation hits record framing often (and values, which pass, too)


@needs_native
def test_well_formed_batches_pass_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    cases = []
    for n in (1, 2, 50, 500):
        records = _records(rng, n)
        keyless = sum(k is None for _, k, _, _ in records)
        cases += [(build_batch(records, compression=c), f"ok, {keyless} keyless") for c in (0, 1, 2, 3, 4)]
    assert any(not want.startswith("ok, 0 ") for _, want in cases)
    for b, want in cases:
        assert _verdict(b) == want
    monkeypatch.setattr(rec, "native_records", None)
    for b, want in cases:
        assert _verdict(b) == want


@pytest.mark.parametrize("codec", [1, 2, 3, 4])
def test_bounded_decompression_matches_decompress_and_stops_at_the_bound(codec: int) -> None:
    from kafka_wire import compression as c

    rng = random.Random(codec)
    inputs = [b"", b"x", rng.randbytes(100_000), b"abc" * 300_000]
    if codec == 2:
        inputs.append(c.xerial_snappy_compress(b"hello" * 50_000))  # the Java client's framing
    for i, data in enumerate(inputs):
        compressed = data if codec == 2 and i == len(inputs) - 1 else c.compress(codec, data)
        expected = c.decompress(codec, compressed)
        with c.decompressed_bounded(codec, compressed, 2_000_000) as (out, n):
            assert out[:n] == expected
        if len(expected) >= 2:
            with pytest.raises(CorruptRecordError, match="at most"):
                with c.decompressed_bounded(codec, compressed, len(expected) - 1):
                    pass
    if codec in (1, 4):  # concatenated members / frames are read whole
        joined = c.compress(codec, b"a" * 1000) + c.compress(codec, b"b" * 1000)
        with c.decompressed_bounded(codec, joined, 10_000) as (out, n):
            assert out[:n] == b"a" * 1000 + b"b" * 1000


def test_a_stale_extension_build_is_not_used() -> None:
    """An editable checkout whose C extension predates its sources (no INTERFACE_VERSION, or another
    one) falls back to the Python paths with a warning, instead of misreading the old functions'
    answers (check_records once returned None, which reads as "no keyless records")."""
    import subprocess
    import sys

    code = (
        "import sys, types, warnings\n"
        "stale = types.ModuleType('kafka_wire._columnar_ext')\n"
        "stale.check_records = lambda *a: None\n"
        "sys.modules['kafka_wire._columnar_ext'] = stale\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import kafka_wire.records as r\n"
        "assert r.native_records is None, r.native_records\n"
        "assert any('stale build' in str(w.message) for w in caught), [str(w.message) for w in caught]\n"
        "batch = r.build_batch([(0, None, b'v', [])])\n"
        "assert r.check_records(batch, 0, r.parse_batch_header(batch, 0)) == 1\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
