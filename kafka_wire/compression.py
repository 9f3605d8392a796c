"""Record batch compression codecs (attribute bits 0-2), all backed by cramjam.

Wire formats, as Apache Kafka and its clients expect them:

* gzip: an RFC 1952 stream (concatenated members are accepted on read).
* snappy: we write *raw* snappy (as librdkafka does); on read we accept raw snappy and the
  xerial/Java framing (``\\x82SNAPPY\\x00`` + version/compat + [int32 BE len][raw block]...) that
  the Java client and kafka-python write.
* lz4: the LZ4 *frame* format (KIP-57) with independent blocks: the Java client decompresses
  every block on its own and rejects linked-block frames.
* zstd: a zstd frame (concatenated frames are accepted on read).
"""

from __future__ import annotations

import contextlib
import mmap
import struct
import threading
from collections.abc import Iterator
from enum import IntEnum
from typing import Any

import cramjam

from kafka_wire.errors import CorruptRecordError, UnsupportedCompressionTypeError

NONE = 0
GZIP = 1
SNAPPY = 2
LZ4 = 3
ZSTD = 4


class CompressionType(IntEnum):
    NONE = 0
    GZIP = 1
    SNAPPY = 2
    LZ4 = 3
    ZSTD = 4


# Marker, "SNAPPY", NUL: the first 8 bytes of a xerial-framed stream.
XERIAL_MAGIC = b"\x82SNAPPY\x00"
# Version 1, minimum compatible version 1 (both int32 BE), as the Java xerial library writes them.
_XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_HEADER_SIZE = 16
_XERIAL_BLOCK_SIZE = 32 * 1024  # uncompressed bytes per block, the xerial default
_INT32 = struct.Struct(">i")

_Buffer = bytes | bytearray | memoryview

_gzip_compress = cramjam.gzip.compress
_gzip_decompress = cramjam.gzip.decompress
_snappy_compress_raw = cramjam.snappy.compress_raw
_snappy_decompress_raw = cramjam.snappy.decompress_raw
_lz4_decompress = cramjam.lz4.decompress
_Lz4Compressor = cramjam.lz4.Compressor
_zstd_compress = cramjam.zstd.compress
_zstd_decompress = cramjam.zstd.decompress


def _lz4_compress(data: _Buffer) -> bytes:
    # cramjam.lz4.compress links blocks by default, which Kafka's Java reader refuses.
    c = _Lz4Compressor(block_linked=False)
    c.compress(data if type(data) is bytes else bytes(data))  # the streaming API takes only bytes
    return bytes(c.finish())


def xerial_snappy_compress(data: _Buffer, block_size: int = _XERIAL_BLOCK_SIZE) -> bytes:
    """Snappy in the xerial block framing (what the Java client and kafka-python write)."""
    mv = memoryview(data)
    parts: list[bytes] = [_XERIAL_HEADER]
    pack = _INT32.pack
    for start in range(0, len(mv), block_size):
        block = _snappy_compress_raw(mv[start : start + block_size])
        parts.append(pack(len(block)))
        parts.append(bytes(block))
    return b"".join(parts)


def _is_xerial(data: _Buffer) -> bool:
    # A raw snappy stream starts with the varint of the uncompressed length, whose first byte
    # could be 0x82, but then "SNAPPY\0" would have to parse as valid snappy tags: the full
    # 8-byte magic plus room for the 8-byte version/compat header is unambiguous in practice.
    return len(data) >= _XERIAL_HEADER_SIZE and data[:8] == XERIAL_MAGIC


def _xerial_blocks(data: _Buffer) -> Iterator[memoryview]:
    """The raw snappy blocks of a xerial-framed stream, each checked against the stream's end."""
    mv = memoryview(data)
    end = len(mv)
    pos = _XERIAL_HEADER_SIZE  # version/compat ignored: some producers write them little-endian
    unpack = _INT32.unpack_from
    while pos < end:
        if end - pos < 4:
            raise CorruptRecordError("xerial snappy: truncated block length")
        (n,) = unpack(mv, pos)
        pos += 4
        if n < 0 or pos + n > end:
            raise CorruptRecordError("xerial snappy: block length out of range")
        yield mv[pos : pos + n]
        pos += n


def _xerial_snappy_decompress(data: _Buffer) -> bytes:
    blocks = [_snappy_decompress_raw(block) for block in _xerial_blocks(data)]
    if len(blocks) == 1:
        return bytes(blocks[0])
    return b"".join(blocks)  # cramjam Buffers support the buffer protocol: one copy


def _xerial_snappy_decompress_into(data: _Buffer, out: mmap.mmap) -> int:
    written = 0
    with memoryview(out) as dest:
        for block in _xerial_blocks(data):
            if cramjam.snappy.decompress_raw_len(block) > len(dest) - written:
                raise cramjam.DecompressionError("snappy: output buffer is smaller than required")
            written += cramjam.snappy.decompress_raw_into(block, dest[written:])
    return written


# Per thread and limit (the event loop's small inline budget, a validation thread's full limit): a
# reused anonymous map to inflate into, so memory is bounded by the threads that inflate.
_inflate = threading.local()
# Pages an inflated batch touched beyond this many bytes go back to the OS after it is checked.
_KEEP_RESIDENT = 16 * 1024 * 1024
# One inflate into a map larger than _KEEP_RESIDENT at a time in the process: threads checking
# batches in parallel (the broker's validation pool, several brokers in one process) would each
# touch up to their whole map for a decompression bomb; this keeps the peak at one map's worth.
_LARGE_INFLATE = threading.Lock()
_madvise: Any = None  # libc's madvise through ctypes (set on first use; False: not available)


def _give_back(out: mmap.mmap) -> None:
    """MADV_DONTNEED on the whole map with the GIL released: mmap.madvise holds it, and giving back a
    bomb's 256 MiB takes 20-100 ms, a stall of every other thread (the broker's event loop)."""
    global _madvise
    if _madvise is None:
        try:
            import ctypes

            fn = ctypes.CDLL(None, use_errno=True).madvise  # a CDLL call releases the GIL
            fn.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
            fn.restype = ctypes.c_int

            def call(m: mmap.mmap) -> None:
                view = (ctypes.c_char * len(m)).from_buffer(m)
                try:
                    start = ctypes.addressof(view)
                    # in steps: each holds the process's mmap lock only briefly, so another
                    # thread's mmap/munmap (a large allocation on the loop) is not held up by it
                    for offset in range(0, len(m), _KEEP_RESIDENT):
                        fn(start + offset, min(_KEEP_RESIDENT, len(m) - offset), mmap.MADV_DONTNEED)
                finally:
                    del view  # the map's buffer export: it must go before the map is closed

            _madvise = call
        except (ImportError, OSError, AttributeError):
            _madvise = False
    if _madvise:
        _madvise(out)
    else:
        out.madvise(mmap.MADV_DONTNEED)


@contextlib.contextmanager
def decompressed_bounded(codec: int, data: _Buffer, limit: int) -> Iterator[tuple[mmap.mmap, int]]:
    """Decompress a batch's records section into at most `limit` bytes; yields the buffer and how many
    bytes of it hold the result (valid inside the `with` only: the buffer is reused).

    For the broker's produce path: a few kilobytes of a compressed batch can claim gigabytes, and
    `decompress` would allocate them. This inflates into one anonymous map of `limit` bytes per
    thread, whose pages are touched only as they are written; cramjam stops (DecompressionError)
    when the output would pass `limit`. Pages beyond _KEEP_RESIDENT are given back afterwards;
    with a `limit` above that, one such inflate runs at a time (others wait, the GIL released).
    Raises CorruptRecordError for malformed or oversized input.
    """
    maps: dict[int, mmap.mmap] | None = getattr(_inflate, "maps", None)
    if maps is None:
        maps = _inflate.maps = {}
    size = max(limit, 1)
    out = maps.get(size)
    if out is None:
        if len(maps) >= 2:  # a thread uses one or two limits; drop the others' maps
            for old in maps.values():
                old.close()
            maps.clear()
        out = maps[size] = mmap.mmap(-1, size)
    with _LARGE_INFLATE if size > _KEEP_RESIDENT else contextlib.nullcontext():
        n = 0  # bytes of the map written: those past _KEEP_RESIDENT are given back
        try:
            try:
                if codec == GZIP:
                    n = cramjam.gzip.decompress_into(data, out)
                elif codec == SNAPPY:
                    if _is_xerial(data):
                        n = _xerial_snappy_decompress_into(data, out)
                    else:
                        n = cramjam.snappy.decompress_raw_into(data, out)
                elif codec == LZ4:
                    n = cramjam.lz4.decompress_into(data, out)
                elif codec == ZSTD:
                    n = cramjam.zstd.decompress_into(data, out)
                else:
                    raise UnsupportedCompressionTypeError(f"unsupported compression codec {codec}")
            except cramjam.DecompressionError as e:
                raise CorruptRecordError(
                    f"cannot decompress {_name(codec)} data into at most {limit} bytes: {e}"
                ) from e
            yield out, int(n)
        except BaseException:
            n = len(out)  # a failure may have written any part of it
            raise
        finally:
            if n > _KEEP_RESIDENT and hasattr(mmap, "MADV_DONTNEED"):
                _give_back(out)


def _snappy_decompress(data: _Buffer) -> bytes:
    if _is_xerial(data):
        return _xerial_snappy_decompress(data)
    return bytes(_snappy_decompress_raw(data))


def compress(codec: int, data: _Buffer) -> bytes:
    """Compress `data` with the batch codec `codec` (0-4), in the format Kafka expects."""
    if codec == NONE:
        return bytes(data)
    if codec == GZIP:
        return bytes(_gzip_compress(data))
    if codec == SNAPPY:
        return bytes(_snappy_compress_raw(data))
    if codec == LZ4:
        return _lz4_compress(data)
    if codec == ZSTD:
        return bytes(_zstd_compress(data))
    raise UnsupportedCompressionTypeError(f"unsupported compression codec {codec}")


def decompress(codec: int, data: _Buffer) -> bytes:
    """Decompress a batch's records section; raises CorruptRecordError on malformed input."""
    try:
        # bytes(Buffer) is a single memcpy; cramjam reads memoryviews without copying.
        if codec == NONE:
            return bytes(data)
        if codec == SNAPPY:
            return _snappy_decompress(data)
        if codec == LZ4:
            return bytes(_lz4_decompress(data))
        if codec == ZSTD:
            return bytes(_zstd_decompress(data))
        if codec == GZIP:
            return bytes(_gzip_decompress(data))
    except cramjam.DecompressionError as e:
        raise CorruptRecordError(f"cannot decompress {_name(codec)} data: {e}") from e
    raise UnsupportedCompressionTypeError(f"unsupported compression codec {codec}")


def _name(codec: int) -> str:
    try:
        return CompressionType(codec).name.lower()
    except ValueError:
        return str(codec)
