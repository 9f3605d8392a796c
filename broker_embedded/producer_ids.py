"""Producer id allocation for InitProducerId.

Ids are handed out from blocks whose upper bound is persisted before any id of the block is used,
so after a crash no id is ever handed out twice: a reused id would collide with the sequence state
an earlier producer left in the logs.
"""

from __future__ import annotations

import os
from pathlib import Path

BLOCK_SIZE = 1000


class ProducerIdManager:
    FILE_NAME = "producer-id-block"

    def __init__(self, log_dir: Path) -> None:
        self.path = log_dir / self.FILE_NAME
        self._next = 0
        self._block_end = 0
        if self.path.exists():
            text = self.path.read_text().strip()
            if text:
                # everything below the persisted bound may have been handed out already
                self._next = self._block_end = int(text)

    def _persist(self, block_end: int) -> None:
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            f.write(f"{block_end}\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def generate(self) -> int:
        if self._next >= self._block_end:
            self._block_end = self._next + BLOCK_SIZE
            self._persist(self._block_end)
        pid = self._next
        self._next += 1
        return pid
