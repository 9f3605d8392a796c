"""The remote reader's read-ahead runs (`RemoteLogReader.read_run`): every answer of a run is
exactly what a fetch at its offset gets from `read` alone, on random segments, byte limits and
index densities, so a consumer served from read-ahead sees the same batches in the same order."""

from __future__ import annotations

import io
import random
import uuid
from typing import Any, BinaryIO

import pytest

from broker_embedded.tiered import RemoteLogSegmentId, RemoteLogSegmentMetadata, TopicIdPartition
from broker_embedded.tiered.config import RemoteLogManagerConfig
from broker_embedded.tiered.reader import RemoteFetchInfo, RemoteLogReader
from kafka_wire.records import build_batch, parse_batch_header

TIP = TopicIdPartition(b"\x02" * 16, "ra", 0)


class _Store:
    """A remote segment in memory; counts ranged reads."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.reads = 0

    def fetch_log_segment(self, md: Any, start: int, end: int | None = None) -> BinaryIO:
        self.reads += 1
        return io.BytesIO(self.data[start : None if end is None else end + 1])


class _Indexes:
    def __init__(self, entries: list[tuple[int, int]]) -> None:
        self.entries = entries  # (base offset, position) of the indexed batches

    def position_for(self, offset: int) -> int:
        pos = 0
        for base, p in self.entries:
            if base > offset:
                break
            pos = p
        return pos

    def get(self, rsm: Any, md: Any) -> _Indexes:
        return self


def _segment(rng: random.Random) -> tuple[bytes, list[tuple[int, int]]]:
    out = bytearray()
    batches: list[tuple[int, int]] = []
    offset = 0
    for _ in range(rng.randint(1, 40)):
        n = rng.randint(1, 20)
        size = rng.choice([10, 200, 3000, 40_000])
        batches.append((offset, len(out)))
        out += build_batch(
            [(0, None, bytes(rng.randrange(256) for _ in range(8)) * (size // 8), None)] * n, base_offset=offset
        )
        offset += n
    return bytes(out), batches


def _expected(data: bytes, batches: list[tuple[int, int]], offset: int, max_bytes: int, min_one: bool) -> bytes:
    """A fetch's answer worked out from the batch list alone (not by the reader's cutting code):
    whole batches from the one holding `offset`, at most max_bytes, the first whole with min_one."""
    bounds = [pos for _, pos in batches] + [len(data)]
    first = max(i for i, (base, _) in enumerate(batches) if base <= offset)
    end = bounds[first]
    for i in range(first, len(batches)):
        if bounds[i + 1] - bounds[first] > max_bytes and not (i == first and min_one):
            break
        end = bounds[i + 1]
    return data[bounds[first] : end]


def _reader(data: bytes, index: list[tuple[int, int]], end_offset: int) -> tuple[RemoteLogReader, _Store]:
    store = _Store(data)
    md = RemoteLogSegmentMetadata(RemoteLogSegmentId(TIP, uuid.uuid4()), 0, end_offset, 0, 0, 1, len(data), ((0, 0),))
    reader = RemoteLogReader(RemoteLogManagerConfig(reader_threads=1), store, None, _Indexes(index))  # type: ignore[arg-type]
    reader.find_segment = lambda p, tip, offset: md if offset <= end_offset else None  # type: ignore[method-assign]
    return reader, store


@pytest.mark.parametrize("seed", range(40))
def test_run_answers_equal_single_reads(seed: int) -> None:
    rng = random.Random(seed)
    data, batches = _segment(rng)
    last = parse_batch_header(data, batches[-1][1]).last_offset
    # every batch indexed, a sparse index, or none at all (position 0 for every offset)
    index = rng.choice([batches, batches[:: rng.randint(2, 5)], []])
    reader, _ = _reader(data, index, last)
    try:
        max_bytes = rng.choice([100, 5_000, 50_000, 200_000, 1 << 20])
        min_one = rng.random() < 0.8
        budget = rng.choice([1, 20_000, 300_000, 4 << 20])
        offset = rng.randint(0, last)
        seen = 0
        while offset <= last:
            info = RemoteFetchInfo(None, TIP, offset, max_bytes, min_one)  # type: ignore[arg-type]
            answers, tail = reader.read_run(info, False, budget)
            assert offset in answers
            for o, (records, aborted) in answers.items():
                assert aborted is None
                single = reader.read(RemoteFetchInfo(None, TIP, o, max_bytes, min_one))  # type: ignore[arg-type]
                assert bytes(records) == single, (seed, o)
                assert single == _expected(data, batches, o, max_bytes, min_one), (seed, o)
                seen += 1
            if not answers[offset][0] or tail < 0:
                break
            # answers chain: each starts at the offset after the previous one
            ordered = sorted(answers)
            for a, b in zip(ordered, ordered[1:], strict=False):
                h = None
                recs = answers[a][0]
                p = 0
                while p < len(recs):
                    h = parse_batch_header(recs, p)
                    p += h.size
                assert h is not None and h.next_offset == b
            offset = tail
        assert seen
    finally:
        reader.shutdown()


def test_one_ranged_read_serves_several_fetches() -> None:
    out = bytearray()
    for i in range(64):
        out += build_batch([(0, None, b"x" * 1000, None)] * 16, base_offset=i * 16)
    reader, store = _reader(bytes(out), [], 64 * 16 - 1)
    try:
        info = RemoteFetchInfo(None, TIP, 0, 50_000, True)  # type: ignore[arg-type]
        answers, tail = reader.read_run(info, False, 1 << 20)
        assert store.reads == 1 and len(answers) >= 15
        records = answers[max(answers)][0]
        assert tail == parse_batch_header(records, len(records) - parse_batch_header(records, 0).size).next_offset
    finally:
        reader.shutdown()


def test_batches_near_max_bytes_take_one_ranged_read() -> None:
    # each answer is one batch of about max_bytes: the next batch's header (within the read's
    # slack) shows it would not fit, so no answer needs a second, chunked read of the segment
    out = bytearray()
    for i in range(8):
        # (batches larger than the read's slack of 2 x READ_CHUNK beyond max_bytes)
        out += build_batch([(0, None, b"z" * 3000, None)] * 100, base_offset=i * 100)
    size = len(out) // 8
    reader, store = _reader(bytes(out), [(i * 100, i * size) for i in range(8)], 8 * 100 - 1)
    try:
        max_bytes = size + 1000
        for o in (0, 100, 700):
            before = store.reads
            data = reader.read(RemoteFetchInfo(None, TIP, o, max_bytes, True))  # type: ignore[arg-type]
            assert parse_batch_header(data, 0).base_offset == o and store.reads == before + 1
        before = store.reads
        answers, tail = reader.read_run(RemoteFetchInfo(None, TIP, 0, max_bytes, True), False, max_bytes)  # type: ignore[arg-type]
        assert list(answers) == [0] and tail == 100 and store.reads == before + 1
        before = store.reads
        answers, tail = reader.read_run(RemoteFetchInfo(None, TIP, 100, max_bytes, True), False, 4 * max_bytes)  # type: ignore[arg-type]
        assert list(answers) == [100, 200, 300, 400] and tail == 500 and store.reads == before + 1
    finally:
        reader.shutdown()


def _next_offset(records: bytes | memoryview) -> int:
    p, nxt = 0, -1
    while p < len(records):
        h = parse_batch_header(records, p)
        p, nxt = p + h.size, h.next_offset
    return nxt


class _Pd:
    """The placeholder PartitionData the fetch path hands over."""

    def __init__(self) -> None:
        self.records: bytes | memoryview = b""
        self.error_code = 0
        self.aborted_transactions = None


class _Log:
    log_start_offset = 1 << 40  # everything below is remote


class _Partition:
    log = _Log()


def test_sequential_fetches_through_read_ahead_and_a_failing_store() -> None:
    import asyncio

    out = bytearray()
    index = []
    for i in range(200):
        index.append((i * 8, len(out)))  # every batch indexed: a first fetch takes one ranged read
        out += build_batch([(0, None, b"y" * 500, None)] * 8, base_offset=i * 8)
    reader, store = _reader(bytes(out), index, 200 * 8 - 1)
    part = _Partition()

    async def fetch(offset: int) -> _Pd:
        pd = _Pd()
        await reader.read_fetches([(pd, RemoteFetchInfo(part, TIP, offset, 30_000, True))])  # type: ignore[arg-type]
        return pd

    async def scenario() -> None:
        offset, answers = 0, {}
        while offset < 200 * 8:
            pd = await fetch(offset)
            assert pd.error_code == 0 and pd.records
            answers[offset] = bytes(pd.records)
            h = None
            p = 0
            while p < len(pd.records):
                h = parse_batch_header(pd.records, p)
                p += h.size
            assert h is not None
            offset = h.next_offset
            await asyncio.sleep(0.002)  # the consumer's turn: the read-ahead runs meanwhile
        assert store.reads * 3 < len(answers)  # one ranged read served several fetches
        assert b"".join(answers.values()) == bytes(out)
        for o, records in answers.items():
            assert records == reader.read(RemoteFetchInfo(part, TIP, o, 30_000, True))  # type: ignore[arg-type]

        # two consumers of the partition at different positions, interleaved: each keeps its own
        # read-ahead (they do not take turns dropping each other's)
        reads, got = store.reads, []
        middle = sorted(answers)[len(answers) // 2]
        positions = [0, middle]
        while positions[0] < middle and positions[1] < 200 * 8:
            for k in (0, 1):
                pd = await fetch(positions[k])
                assert pd.error_code == 0
                got.append((positions[k], bytes(pd.records)))
                positions[k] = _next_offset(pd.records)
            await asyncio.sleep(0.002)
        assert (store.reads - reads) * 3 < len(got)
        for o, records in got:
            assert records == reader.read(RemoteFetchInfo(part, TIP, o, 30_000, True))  # type: ignore[arg-type]

        # a store that fails: no answer read before is served for a new stream, and errors are clean
        def failing(md: Any, start: int, end: int | None = None) -> BinaryIO:
            raise OSError("injected")

        good = store.fetch_log_segment
        store.fetch_log_segment = failing  # type: ignore[method-assign]
        pd = await fetch(0)
        assert pd.error_code != 0 and pd.records == b""
        store.fetch_log_segment = good  # type: ignore[method-assign]
        pd = await fetch(0)
        assert pd.error_code == 0 and bytes(pd.records) == reader.read(RemoteFetchInfo(part, TIP, 0, 30_000, True))  # type: ignore[arg-type]

    try:
        asyncio.run(scenario())
    finally:
        reader.shutdown()
