"""kafka_wire.compression: round trips, wire formats, and interop with independent codec libraries."""

from __future__ import annotations

import gzip
import os
import struct

import lz4.frame
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from kafka import codec as kcodec

from kafka_wire.compression import (
    GZIP,
    LZ4,
    NONE,
    SNAPPY,
    XERIAL_MAGIC,
    ZSTD,
    CompressionType,
    compress,
    decompress,
    xerial_snappy_compress,
)
from kafka_wire.errors import CorruptRecordError, UnsupportedCompressionTypeError

ALL_CODECS = [NONE, GZIP, SNAPPY, LZ4, ZSTD]

# Compressible but not trivial: repeated text with random bytes sprinkled in, > 64 KiB so that
# lz4 emits several blocks and xerial snappy several 32 KiB chunks.
BIG = b"".join(b"record %d value " % i + os.urandom(4) for i in range(8000))


def test_codec_ids() -> None:
    assert [int(c) for c in CompressionType] == [0, 1, 2, 3, 4]
    assert (NONE, GZIP, SNAPPY, LZ4, ZSTD) == (0, 1, 2, 3, 4)
    assert CompressionType.ZSTD == ZSTD


@settings(max_examples=150, deadline=None)
@given(codec=st.sampled_from(ALL_CODECS), data=st.binary(max_size=5000))
def test_round_trip(codec: int, data: bytes) -> None:
    packed = compress(codec, data)
    assert type(packed) is bytes
    out = decompress(codec, packed)
    assert type(out) is bytes
    assert out == data


@pytest.mark.parametrize("codec", ALL_CODECS)
def test_round_trip_large_and_buffer_types(codec: int) -> None:
    packed = compress(codec, bytearray(BIG))
    assert decompress(codec, compress(codec, memoryview(BIG))) == BIG
    for view in (packed, bytearray(packed), memoryview(packed), memoryview(b"xx" + packed)[2:]):
        assert decompress(codec, view) == BIG
    if codec != NONE:
        assert len(packed) < len(BIG)


@pytest.mark.parametrize("codec", [5, 6, 7, -1])
def test_unknown_codec(codec: int) -> None:
    with pytest.raises(UnsupportedCompressionTypeError):
        compress(codec, b"abc")
    with pytest.raises(UnsupportedCompressionTypeError):
        decompress(codec, b"abc")


@pytest.mark.parametrize("codec", [GZIP, SNAPPY, LZ4, ZSTD])
def test_garbage_is_corrupt(codec: int) -> None:
    with pytest.raises(CorruptRecordError):
        decompress(codec, b"\xff\xfe definitely not compressed data \x00\x01" * 3)


# --- gzip ---------------------------------------------------------------------------------------


def test_gzip_interop_with_stdlib() -> None:
    assert gzip.decompress(compress(GZIP, BIG)) == BIG
    assert decompress(GZIP, gzip.compress(BIG)) == BIG
    # Java's GZIPInputStream reads concatenated members; so do we.
    assert decompress(GZIP, gzip.compress(b"abc") + gzip.compress(b"def")) == b"abcdef"
    assert decompress(GZIP, kcodec.gzip_encode(BIG)) == BIG


# --- snappy -------------------------------------------------------------------------------------


def test_snappy_writes_raw() -> None:
    packed = compress(SNAPPY, BIG)
    assert not packed.startswith(XERIAL_MAGIC)
    # kafka-python (python-snappy) reads raw snappy when there is no xerial header.
    assert kcodec.snappy_decode(packed) == BIG


def test_snappy_reads_xerial_framing_from_kafka_python() -> None:
    framed = kcodec.snappy_encode(BIG)  # xerial_compatible=True is kafka-python's default
    assert framed.startswith(XERIAL_MAGIC)
    assert decompress(SNAPPY, framed) == BIG
    small = kcodec.snappy_encode(b"hello")
    assert decompress(SNAPPY, small) == b"hello"


def test_snappy_reads_raw_from_kafka_python() -> None:
    raw = kcodec.snappy_encode(BIG, xerial_compatible=False)
    assert decompress(SNAPPY, raw) == BIG


def test_xerial_compress_layout_and_interop() -> None:
    framed = xerial_snappy_compress(BIG)
    assert framed[:8] == XERIAL_MAGIC
    assert struct.unpack(">ii", framed[8:16]) == (1, 1)
    # Walk the chunks: [int32 BE length][raw block], each block <= 32 KiB uncompressed.
    pos, blocks = 16, 0
    while pos < len(framed):
        (n,) = struct.unpack_from(">i", framed, pos)
        pos += 4 + n
        blocks += 1
    assert pos == len(framed)
    assert blocks == -(-len(BIG) // (32 * 1024))
    assert kcodec.snappy_decode(framed) == BIG
    assert decompress(SNAPPY, framed) == BIG
    assert decompress(SNAPPY, xerial_snappy_compress(b"")) == b""


def test_xerial_little_endian_version_is_tolerated() -> None:
    # Some producers (redpanda) write version/compat little-endian: the header is not checked.
    framed = bytearray(xerial_snappy_compress(b"payload" * 100))
    framed[8:16] = struct.pack("<ii", 1, 1)
    assert decompress(SNAPPY, bytes(framed)) == b"payload" * 100


def test_xerial_truncated_is_corrupt() -> None:
    framed = xerial_snappy_compress(BIG)
    with pytest.raises(CorruptRecordError):
        decompress(SNAPPY, framed[:-10])
    with pytest.raises(CorruptRecordError):
        decompress(SNAPPY, framed + b"\x00\x00")  # dangling partial length


# --- lz4 ----------------------------------------------------------------------------------------


def test_lz4_is_frame_format_with_independent_blocks() -> None:
    packed = compress(LZ4, BIG)
    assert packed[:4] == b"\x04\x22\x4d\x18"  # LZ4 frame magic (KIP-57), not the legacy block format
    flg = packed[4]
    assert flg >> 6 == 1  # version 01
    assert flg & 0x20  # block independence: Kafka's Java reader rejects linked blocks
    assert lz4.frame.decompress(packed) == BIG


def test_lz4_reads_frames_from_other_writers() -> None:
    assert decompress(LZ4, lz4.frame.compress(BIG)) == BIG
    assert decompress(LZ4, lz4.frame.compress(BIG, block_linked=False, content_checksum=True)) == BIG
    assert decompress(LZ4, kcodec.lz4_encode(BIG)) == BIG


# --- zstd ---------------------------------------------------------------------------------------


def test_zstd_interop() -> None:
    assert zstandard.ZstdDecompressor().decompress(compress(ZSTD, BIG)) == BIG
    assert decompress(ZSTD, zstandard.ZstdCompressor().compress(BIG)) == BIG
    # A streamed frame carries no content size; the Java client writes those.
    cobj = zstandard.ZstdCompressor().compressobj()
    streamed = cobj.compress(BIG) + cobj.flush()
    assert decompress(ZSTD, streamed) == BIG
    two = zstandard.ZstdCompressor().compress(b"abc") + zstandard.ZstdCompressor().compress(b"def")
    assert decompress(ZSTD, two) == b"abcdef"
    assert decompress(ZSTD, kcodec.zstd_encode(BIG)) == BIG
    assert kcodec.zstd_decode(compress(ZSTD, BIG)) == BIG
