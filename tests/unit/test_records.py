"""Record batch v2: build/validate/decode round trips, kafka-python as a differential oracle, bad input."""

from __future__ import annotations

import struct
from typing import Any

import crc32c
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from kafka.record import util as kutil
from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder

from kafka_wire.compression import XERIAL_MAGIC
from kafka_wire.errors import (
    CorruptRecordError,
    KafkaError,
    MessageTooLargeError,
    UnsupportedCompressionTypeError,
)
from kafka_wire.records import (
    BATCH_HEADER_SIZE,
    ControlRecordType,
    Record,
    build_batch,
    build_control_batch,
    decode_batch,
    decode_batches,
    decode_control_record,
    iter_batches,
    parse_batch_header,
    set_log_append_time,
    stamp_batch,
    validate_batch,
)
from kafka_wire.varint import decode_varint, encode_varint, size_of_varint, write_varint

ALL_CODECS = [0, 1, 2, 3, 4]
INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
TS = st.integers(min_value=0, max_value=2**45)  # epoch millis, with room for big deltas

headers_st = st.lists(st.tuples(st.text(max_size=12), st.one_of(st.none(), st.binary(max_size=20))), max_size=3)
record_st = st.tuples(
    TS,
    st.one_of(st.none(), st.binary(max_size=40)),
    st.one_of(st.none(), st.binary(max_size=300)),
    headers_st,
)


def _expected(recs: list[tuple[Any, ...]], base_offset: int = 0) -> list[Record]:
    return [Record(base_offset + i, ts, k, v, list(h)) for i, (ts, k, v, h) in enumerate(recs)]


def _recrc(buf: bytearray, pos: int = 0) -> None:
    """Recompute the CRC after a deliberate edit, so a test reaches the check after the CRC."""
    size = struct.unpack_from(">i", buf, pos + 8)[0] + 12
    struct.pack_into(">I", buf, pos + 17, crc32c.crc32c(memoryview(buf)[pos + 21 : pos + size]))


def _sample(n: int = 5, size: int = 50) -> list[tuple[Any, ...]]:
    return [
        (
            1_700_000_000_000 + 7 * i,
            b"k%d" % i,
            (b"value-%d-" % i) * (size // 8),
            [("h", b"x")] if i % 2 else [],
        )
        for i in range(n)
    ]


# --- varints ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, b"\x00"),
        (-1, b"\x01"),
        (1, b"\x02"),
        (63, b"\x7e"),
        (-64, b"\x7f"),
        (64, b"\x80\x01"),
        (2**31 - 1, b"\xfe\xff\xff\xff\x0f"),
        (-(2**63), b"\xff" * 9 + b"\x01"),
    ],
)
def test_varint_vectors(value: int, encoded: bytes) -> None:
    assert encode_varint(value) == encoded
    assert decode_varint(encoded, 0) == (value, len(encoded))
    assert size_of_varint(value) == len(encoded)


@given(INT64)
def test_varint_matches_kafka_python(value: int) -> None:
    theirs = bytearray()
    kutil.encode_varint(value, theirs.append)
    ours = bytearray()
    write_varint(ours, value)
    assert ours == theirs == encode_varint(value)
    assert decode_varint(b"??" + bytes(ours), 2) == (value, 2 + len(ours))
    assert size_of_varint(value) == kutil.size_of_varint(value) == len(ours)


def test_varint_errors() -> None:
    with pytest.raises(CorruptRecordError):
        decode_varint(b"\x80\x80", 0)
    with pytest.raises(CorruptRecordError):
        decode_varint(b"\xff" * 11, 0)


# --- round trips --------------------------------------------------------------------------------


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    recs=st.lists(record_st, min_size=1, max_size=25),
    codec=st.sampled_from(ALL_CODECS),
    base_offset=st.integers(min_value=0, max_value=2**62),
    transactional=st.booleans(),
)
def test_build_validate_decode_round_trip(
    recs: list[tuple[Any, ...]], codec: int, base_offset: int, transactional: bool
) -> None:
    pid = 4242 if transactional else -1
    buf = build_batch(
        recs,
        base_offset=base_offset,
        compression=codec,
        producer_id=pid,
        producer_epoch=3 if transactional else -1,
        base_sequence=17 if transactional else -1,
        is_transactional=transactional,
        partition_leader_epoch=9,
    )
    h = validate_batch(buf)
    assert h.size == len(buf)
    assert h.magic == 2
    assert h.compression == codec
    assert h.base_offset == base_offset
    assert h.partition_leader_epoch == 9
    assert h.record_count == len(recs)
    assert h.last_offset_delta == len(recs) - 1
    assert h.base_timestamp == recs[0][0]
    assert h.max_timestamp == max(r[0] for r in recs)
    assert h.is_transactional is transactional
    assert not h.is_control and not h.is_log_append_time
    assert (h.producer_id, h.producer_epoch, h.base_sequence) == ((4242, 3, 17) if transactional else (-1, -1, -1))
    h2, records = decode_batch(buf)
    assert h2 == h
    assert records == _expected(recs, base_offset)
    # The same bytes behind other buffer types decode identically.
    assert decode_batch(bytearray(buf))[1] == records
    assert decode_batch(memoryview(b"\x00" * 7 + buf), 7)[1] == records


def test_record_objects_keep_offset_gaps() -> None:
    recs = [Record(100, 5, b"a", b"1"), Record(103, 4, None, b"2", [("h", None)]), Record(110, 9, b"c", None)]
    buf = build_batch(recs, base_offset=100)
    h, out = decode_batch(buf)
    assert out == recs
    assert h.last_offset_delta == 10 and h.record_count == 3 and h.next_offset == 111
    with pytest.raises(ValueError):
        build_batch([Record(5, 0, None, None), Record(5, 0, None, None)], base_offset=5)
    with pytest.raises(ValueError):
        build_batch([])


def test_large_values_and_many_records() -> None:
    # Multi-byte varints everywhere: 3-byte lengths, big offset/timestamp deltas, 70 KiB value.
    recs = [(1_000 + i * 100_000, b"k" * 200, bytes(range(256)) * (i % 5 + 1), []) for i in range(300)]
    recs.append((0, None, b"v" * 70_000, [("big", b"h" * 9000)]))
    for codec in ALL_CODECS:
        buf = build_batch(recs, compression=codec)
        assert decode_batch(buf)[1] == _expected(recs)


def test_none_timestamp_means_now() -> None:
    h, (rec,) = decode_batch(build_batch([(None, b"k", b"v", None)]))
    assert rec.timestamp > 1_600_000_000_000
    assert h.base_timestamp == h.max_timestamp == rec.timestamp


def test_header_key_bytes_accepted() -> None:
    _, (rec,) = decode_batch(build_batch([(1, None, None, [(b"raw", b"v"), ("\u00e9t\u00e9", None)])]))
    assert rec.headers == [("raw", b"v"), ("\u00e9t\u00e9", None)]


# --- kafka-python as a differential oracle -------------------------------------------------------


def _kp_build(recs: list[tuple[Any, ...]], codec: int, **producer: int) -> bytes:
    b = DefaultRecordBatchBuilder(
        magic=2,
        compression_type=codec,
        is_transactional=producer.get("transactional", 0),
        producer_id=producer.get("producer_id", -1),
        producer_epoch=producer.get("producer_epoch", -1),
        base_sequence=producer.get("base_sequence", -1),
        batch_size=1 << 30,
    )
    for i, (ts, k, v, h) in enumerate(recs):
        assert b.append(i, timestamp=ts, key=k, value=v, headers=h) is not None
    return bytes(b.build())


def _kp_decode(buf: bytes) -> tuple[DefaultRecordBatch, list[Record]]:
    batch = DefaultRecordBatch(bytes(buf))
    assert batch.validate_crc()
    recs = [Record(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
    return batch, recs


@pytest.mark.parametrize("codec", ALL_CODECS)
def test_kafka_python_batches_decode_with_ours(codec: int) -> None:
    recs = _sample(40, 120)
    buf = _kp_build(recs, codec, transactional=1, producer_id=77, producer_epoch=2, base_sequence=5)
    h = validate_batch(buf)
    assert h.compression == codec  # the data is compressible, so kafka-python did compress
    if codec == 2:
        assert buf[BATCH_HEADER_SIZE : BATCH_HEADER_SIZE + 8] == XERIAL_MAGIC  # kafka-python's default
    assert (h.producer_id, h.producer_epoch, h.base_sequence, h.is_transactional) == (77, 2, 5, True)
    _, ours = decode_batch(buf)
    _, theirs = _kp_decode(buf)
    assert ours == theirs == _expected(recs)


@pytest.mark.parametrize("codec", ALL_CODECS)
def test_our_batches_decode_with_kafka_python(codec: int) -> None:
    recs = _sample(40, 120) + [(5, None, None, [("n", None)])]
    buf = build_batch(recs, base_offset=1000, compression=codec, producer_id=8, producer_epoch=1, base_sequence=0)
    if codec == 2:
        assert not buf[BATCH_HEADER_SIZE:].startswith(XERIAL_MAGIC)  # we write raw snappy
    batch, theirs = _kp_decode(buf)
    assert theirs == decode_batch(buf)[1] == _expected(recs, 1000)
    h = parse_batch_header(buf)
    assert batch.compression_type == codec
    assert (batch.base_offset, batch.last_offset_delta, batch.first_timestamp, batch.max_timestamp) == (
        h.base_offset,
        h.last_offset_delta,
        h.base_timestamp,
        h.max_timestamp,
    )
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence) == (8, 1, 0)


def test_xerial_snappy_batch_from_kafka_python_and_raw_snappy_batch() -> None:
    recs = [(1, b"k", b"snappy " * 20000, [])]  # > 32 KiB: several xerial chunks
    xerial = _kp_build(recs, 2)
    assert xerial[BATCH_HEADER_SIZE : BATCH_HEADER_SIZE + 8] == XERIAL_MAGIC
    raw = build_batch(recs, compression=2)
    assert raw[BATCH_HEADER_SIZE : BATCH_HEADER_SIZE + 8] != XERIAL_MAGIC
    for buf in (xerial, raw):
        assert decode_batch(buf)[1] == _kp_decode(buf)[1] == _expected(recs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(recs=st.lists(record_st, min_size=1, max_size=15), codec=st.sampled_from(ALL_CODECS))
def test_differential_property(recs: list[tuple[Any, ...]], codec: int) -> None:
    ours = build_batch(recs, compression=codec)
    assert _kp_decode(ours)[1] == _expected(recs)
    theirs = _kp_build(recs, codec)
    assert decode_batch(theirs)[1] == _expected(recs)


def test_control_batch() -> None:
    for commit in (True, False):
        buf = build_control_batch(55, 4, commit, coordinator_epoch=12, timestamp=999, base_offset=70)
        h, (rec,) = decode_batch(buf)
        assert h.is_control and h.is_transactional and h.producer_id == 55 and h.producer_epoch == 4
        assert h.base_sequence == -1 and h.record_count == 1
        assert rec.offset == 70 and rec.timestamp == 999
        assert rec.key == struct.pack(">hh", 0, 1 if commit else 0)
        assert rec.value == struct.pack(">hi", 0, 12)
        ctype, epoch = decode_control_record(rec)
        assert ctype == (ControlRecordType.COMMIT if commit else ControlRecordType.ABORT) and epoch == 12
        batch = DefaultRecordBatch(buf)
        assert batch.validate_crc() and batch.is_control_batch and batch.is_transactional
        (kp_rec,) = list(batch)
        assert kp_rec.commit is commit and kp_rec.abort is (not commit)


# --- walking, stamping, log append time ----------------------------------------------------------


def test_iter_batches_and_decode_batches() -> None:
    a = build_batch(_sample(3), base_offset=0)
    marker = build_control_batch(1, 0, True, 0, 5, base_offset=3)
    b = build_batch(_sample(4), base_offset=4, compression=3)
    buf = a + marker + b
    walked = list(iter_batches(buf))
    assert [p for p, _ in walked] == [0, len(a), len(a) + len(marker)]
    assert [h.base_offset for _, h in walked] == [0, 3, 4]
    assert [r.offset for r in decode_batches(buf)] == [0, 1, 2, 4, 5, 6, 7]
    assert [r.offset for r in decode_batches(buf, include_control=True)] == list(range(8))
    # A fetch response may end mid-batch: strict walking raises, lenient walking stops.
    for cut in (1, 30, len(b) - 1):
        partial = buf[:-cut]
        with pytest.raises(CorruptRecordError):
            list(iter_batches(partial))
        assert len(list(iter_batches(partial, allow_partial_tail=True))) == 2
        assert [r.offset for r in decode_batches(partial)] == [0, 1, 2]
    assert list(iter_batches(b"")) == []


@pytest.mark.parametrize("kind", [bytearray, memoryview])
def test_stamp_batch_keeps_crc_valid(kind: type) -> None:
    raw = bytearray(b"\x00" * 5 + build_batch(_sample(3), compression=4))
    target = raw if kind is bytearray else memoryview(raw)
    stamp_batch(target, 5, 123_456_789, 42)
    h = validate_batch(raw, 5)
    assert h.base_offset == 123_456_789 and h.partition_leader_epoch == 42
    assert [r.offset for r in decode_batch(raw, 5)[1]] == [123_456_789, 123_456_790, 123_456_791]
    assert DefaultRecordBatch(bytes(raw[5:])).validate_crc()


def test_set_log_append_time_keeps_crc_valid() -> None:
    recs = _sample(4)
    raw = bytearray(build_batch(recs, compression=1))
    set_log_append_time(raw, 0, 1_800_000_000_000)
    h = validate_batch(raw)
    assert h.is_log_append_time and h.max_timestamp == 1_800_000_000_000
    assert h.base_timestamp == recs[0][0]  # deltas and base left alone, as Kafka does
    assert [r.timestamp for r in decode_batch(raw)[1]] == [1_800_000_000_000] * 4
    batch = DefaultRecordBatch(bytes(raw))
    assert batch.validate_crc() and batch.timestamp_type == 1
    assert [r.timestamp for r in batch] == [1_800_000_000_000] * 4
    # A batch built as LogAppendTime reads the same way.
    h2, out = decode_batch(build_batch(recs, timestamp_type=1))
    assert h2.is_log_append_time and {r.timestamp for r in out} == {h2.max_timestamp}


# --- bad input ----------------------------------------------------------------------------------


def test_wrong_crc() -> None:
    raw = bytearray(build_batch(_sample()))
    raw[-3] ^= 0x40
    with pytest.raises(CorruptRecordError, match="CRC"):
        validate_batch(raw)
    with pytest.raises(CorruptRecordError):
        decode_batch(raw)
    decode_batch(bytes(raw), verify_crc=False)  # flipped a value byte: structurally still fine


def test_wrong_magic() -> None:
    for magic in (0, 1, 3):
        raw = bytearray(build_batch(_sample()))
        raw[16] = magic  # not covered by the CRC
        with pytest.raises(CorruptRecordError, match="magic"):
            validate_batch(raw)
        with pytest.raises(CorruptRecordError):
            list(iter_batches(raw))


def test_truncated() -> None:
    buf = build_batch(_sample())
    for n in (0, 10, 60, 61, len(buf) - 1):
        with pytest.raises(CorruptRecordError):
            validate_batch(buf[:n])
    raw = bytearray(buf)
    struct.pack_into(">i", raw, 8, 10)  # batchLength smaller than a header
    with pytest.raises(CorruptRecordError):
        validate_batch(raw)


@pytest.mark.parametrize("codec", [5, 6, 7])
def test_unknown_codec_bits(codec: int) -> None:
    raw = bytearray(build_batch(_sample()))
    struct.pack_into(">h", raw, 21, codec)
    _recrc(raw)
    with pytest.raises(UnsupportedCompressionTypeError):
        validate_batch(raw)
    with pytest.raises(UnsupportedCompressionTypeError):
        decode_batch(raw)
    with pytest.raises(UnsupportedCompressionTypeError):
        build_batch(_sample(), compression=codec)


def test_oversized_batch() -> None:
    buf = build_batch(_sample(20, 500))
    assert validate_batch(buf, max_size=len(buf)).size == len(buf)
    with pytest.raises(MessageTooLargeError):
        validate_batch(buf, max_size=len(buf) - 1)


def test_negative_counts() -> None:
    for offset in (23, 57):  # lastOffsetDelta, recordCount
        raw = bytearray(build_batch(_sample()))
        struct.pack_into(">i", raw, offset, -1)
        _recrc(raw)
        with pytest.raises(CorruptRecordError):
            validate_batch(raw)


def test_record_count_mismatch() -> None:
    for count in (4, 6):
        raw = bytearray(build_batch(_sample(5)))
        struct.pack_into(">i", raw, 57, count)
        _recrc(raw)
        validate_batch(raw)  # header-only checks pass: the records section is not parsed
        with pytest.raises(CorruptRecordError):
            decode_batch(raw)


def test_corrupt_compressed_payload() -> None:
    raw = bytearray(build_batch(_sample(20), compression=4))
    raw[BATCH_HEADER_SIZE + 1] ^= 0xFF
    _recrc(raw)
    with pytest.raises(CorruptRecordError):
        decode_batch(raw)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_mutated_records_never_crash_unexpectedly(data: st.DataObject) -> None:
    recs = data.draw(st.lists(record_st, min_size=1, max_size=6))
    raw = bytearray(build_batch(recs))
    assume(len(raw) > BATCH_HEADER_SIZE)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(BATCH_HEADER_SIZE, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        del raw[data.draw(st.integers(BATCH_HEADER_SIZE, len(raw) - 1)) :]
        struct.pack_into(">i", raw, 8, len(raw) - 12)
    try:
        decode_batch(bytes(raw), verify_crc=False)
    except KafkaError:
        pass
