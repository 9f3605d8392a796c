"""A partition's segments by base offset, and the ones waiting to be unlinked (Kafka's LogSegments).

The one owner of the ordered map base offset -> `LogSegment` that `Log`, its loader, retention
and the cleaner share: floor lookups (the segment holding an offset), adding the new active
segment, removing or replacing runs of segments, and the segments already renamed `.deleted`
that are unlinked after file.delete.delay.ms (readers may still hold their descriptors).

In memory only: renaming and unlinking files stays with the caller, which holds the log's lock
(this class takes none). Segments are compared by identity, as a cleaner swap must replace
exactly the objects it read, not others at the same base offsets.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from .segment import LogSegment


class LogSegments:
    """The segments in base offset order; the last one is the active segment."""

    __slots__ = ("_segments", "_bases", "_scheduled")

    def __init__(self, segments: Iterable[LogSegment] = ()) -> None:
        self._segments: list[LogSegment] = []
        self._bases: list[int] = []  # parallel to _segments, for bisect
        self._scheduled: list[tuple[int, LogSegment]] = []  # (unlink due ms, segment renamed .deleted)
        for seg in segments:
            self.add(seg)

    # ------------------------------------------------------------------ the map

    def __len__(self) -> int:
        return len(self._segments)

    def __iter__(self) -> Iterator[LogSegment]:
        return iter(self._segments)

    @overload
    def __getitem__(self, i: int) -> LogSegment: ...

    @overload
    def __getitem__(self, i: slice) -> list[LogSegment]: ...

    def __getitem__(self, i: int | slice) -> LogSegment | list[LogSegment]:
        return self._segments[i]  # a slice is a new list: mutating it leaves the map alone

    @property
    def active(self) -> LogSegment:
        return self._segments[-1]

    @property
    def first(self) -> LogSegment:
        return self._segments[0]

    @property
    def base_offsets(self) -> list[int]:
        return list(self._bases)

    @property
    def size_in_bytes(self) -> int:
        return sum(s.size for s in self._segments)

    def add(self, seg: LogSegment) -> None:
        """Append `seg` as the new active segment; its base offset must be above every other."""
        if self._bases and seg.base_offset <= self._bases[-1]:
            raise ValueError(f"segment base offset {seg.base_offset} is not above the active one's {self._bases[-1]}")
        self._segments.append(seg)
        self._bases.append(seg.base_offset)

    def floor_index(self, offset: int) -> int:
        """Index of the segment with the greatest base offset <= `offset` (0 below the first)."""
        return max(0, bisect_right(self._bases, offset) - 1)

    def floor(self, offset: int) -> LogSegment:
        """The segment that holds `offset` (the first one for an offset below its base)."""
        return self._segments[self.floor_index(offset)]

    def from_offset(self, offset: int) -> list[LogSegment]:
        """The segment holding `offset` and every later one."""
        return self._segments[self.floor_index(offset) :]

    def remove(self, segs: Iterable[LogSegment]) -> None:
        gone = {id(s) for s in segs}
        if not gone:
            return
        self._segments = [s for s in self._segments if id(s) not in gone]
        self._bases = [s.base_offset for s in self._segments]

    def remove_after(self, index: int) -> list[LogSegment]:
        """Drop the segments after position `index`; returns them (recovery cut the log there)."""
        dropped = self._segments[index + 1 :]
        del self._segments[index + 1 :]
        del self._bases[index + 1 :]
        return dropped

    def clear(self) -> list[LogSegment]:
        """Drop every segment; returns them."""
        old = self._segments
        self._segments, self._bases = [], []
        return old

    def index_of_run(self, run: Sequence[LogSegment]) -> int | None:
        """Position of `run` if it is a consecutive run of these very segments, else None."""
        if not run:
            return None
        first = id(run[0])
        for start, seg in enumerate(self._segments):
            if id(seg) == first:
                window = self._segments[start : start + len(run)]
                if len(window) == len(run) and all(a is b for a, b in zip(window, run, strict=True)):
                    return start
                return None
        return None

    def replace(self, old: Sequence[LogSegment], new: LogSegment) -> None:
        """Put `new` in the place of the consecutive run `old` (a cleaned segment for the ones it
        was written from). `new` takes the run's first base offset. ValueError if `old` is not a
        run of these segments or `new` starts elsewhere."""
        start = self.index_of_run(old)
        if start is None:
            raise ValueError("the segments to replace are not a consecutive run of this log's segments")
        if new.base_offset != old[0].base_offset:
            raise ValueError(f"replacement base offset {new.base_offset} != {old[0].base_offset}")
        self._segments[start : start + len(old)] = [new]
        self._bases[start : start + len(old)] = [new.base_offset]

    # ------------------------------------------------------------------ scheduled deletes

    def schedule_delete(self, segs: Iterable[LogSegment], due_ms: int) -> None:
        """Keep segments (already out of the map and renamed `.deleted`) until `due_ms`."""
        self._scheduled.extend((due_ms, seg) for seg in segs)

    def take_due_deletes(self, now_ms: int, force: bool = False) -> list[LogSegment]:
        """The scheduled segments due at `now_ms` (all with `force`), no longer scheduled: the
        caller unlinks their files."""
        ready = [s for d, s in self._scheduled if force or d <= now_ms]
        if ready:
            self._scheduled = [(d, s) for d, s in self._scheduled if not (force or d <= now_ms)]
        return ready

    @property
    def has_scheduled_deletes(self) -> bool:
        return bool(self._scheduled)

    def __repr__(self) -> str:
        return f"LogSegments(bases={self._bases}, scheduled_deletes={len(self._scheduled)})"


__all__ = ["LogSegments"]
