"""Log storage of the embedded broker: segments, indexes, partition logs, recovery, checkpoints,
producer state and the log manager (its place on a request's path: ARCHITECTURE.md §3)."""

from .config import LogConfig
from .epoch_cache import LeaderEpochFileCache
from .errors import (
    InvalidProducerEpochError,
    OutOfOrderSequenceError,
    RecordBatchTooLargeError,
    UnexpectedAppendOffsetError,
)
from .log import (
    EARLIEST_LOCAL_TIMESTAMP,
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    MAX_TIMESTAMP,
    AppendInfo,
    AppendOrigin,
    FetchDataInfo,
    FileRegion,
    Log,
    LogOffsetMetadata,
    TimestampAndOffset,
    parse_topic_partition_name,
    partition_dir_name,
)
from .manager import CLEAN_SHUTDOWN_FILE, LogManager, MaintenanceStats
from .producer_state import ProducerCheck, ProducerCheckStatus, ProducerStateManager
from .segment import LogSegment

__all__ = [
    "AppendInfo",
    "AppendOrigin",
    "CLEAN_SHUTDOWN_FILE",
    "EARLIEST_LOCAL_TIMESTAMP",
    "EARLIEST_TIMESTAMP",
    "FetchDataInfo",
    "FileRegion",
    "InvalidProducerEpochError",
    "LATEST_TIMESTAMP",
    "LeaderEpochFileCache",
    "Log",
    "LogConfig",
    "LogManager",
    "LogOffsetMetadata",
    "LogSegment",
    "MAX_TIMESTAMP",
    "MaintenanceStats",
    "OutOfOrderSequenceError",
    "ProducerCheck",
    "ProducerCheckStatus",
    "ProducerStateManager",
    "RecordBatchTooLargeError",
    "TimestampAndOffset",
    "UnexpectedAppendOffsetError",
    "parse_topic_partition_name",
    "partition_dir_name",
]
