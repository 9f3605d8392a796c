"""One module per Kafka API, mirroring the protocol (like franz-go kfake's ``00_produce.go``).

Each module defines ``API_KEY`` and ``handle(broker, ctx, request)`` returning the response
object, an ``asyncio.Future`` of one (requests parked in the purgatory), or ``None`` when the
protocol sends no response (acks=0 produce).

A handler is registered by its line in ``HANDLER_MODULES`` (API key -> module name). ``HANDLERS``
imports a handler, and with it its codecs, on the API's first request: importing all ~40 of them
at start cost more than the rest of the broker's start together. ``versions.py`` advertises the
keys of the table when the release profile has them, without importing anything.
``tests/unit/test_api_handlers.py`` scans this package with :func:`scan_handlers` (every module
that defines ``API_KEY``, as kfake's ``regKey``) and fails, printing the right table, when the two
disagree; adding an API key is its module plus one line here.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from kafka_wire.protocol.lazy import LazyModules

HANDLER_MODULES: dict[int, str] = {
    0: "produce",
    1: "fetch",
    2: "list_offsets",
    3: "metadata",
    8: "offset_commit",
    9: "offset_fetch",
    10: "find_coordinator",
    11: "join_group",
    12: "heartbeat",
    13: "leave_group",
    14: "sync_group",
    15: "describe_groups",
    16: "list_groups",
    17: "sasl_handshake",
    18: "api_versions",
    19: "create_topics",
    20: "delete_topics",
    21: "delete_records",
    22: "init_producer_id",
    23: "offset_for_leader_epoch",
    24: "add_partitions_to_txn",
    25: "add_offsets_to_txn",
    26: "end_txn",
    27: "write_txn_markers",
    28: "txn_offset_commit",
    29: "describe_acls",
    30: "create_acls",
    31: "delete_acls",
    32: "describe_configs",
    33: "alter_configs",
    34: "alter_replica_log_dirs",
    35: "describe_log_dirs",
    36: "sasl_authenticate",
    37: "create_partitions",
    42: "delete_groups",
    43: "elect_leaders",
    44: "incremental_alter_configs",
    45: "alter_partition_reassignments",
    46: "list_partition_reassignments",
    47: "offset_delete",
    48: "describe_client_quotas",
    49: "alter_client_quotas",
    50: "describe_user_scram_credentials",
    51: "alter_user_scram_credentials",
    57: "update_features",
    60: "describe_cluster",
    61: "describe_producers",
    65: "describe_transactions",
    66: "list_transactions",
    68: "consumer_group_heartbeat",
    69: "consumer_group_describe",
    75: "describe_topic_partitions",
    76: "share_group_heartbeat",
    77: "share_group_describe",
    78: "share_fetch",
    79: "share_acknowledge",
    83: "initialize_share_group_state",
    84: "read_share_group_state",
    85: "write_share_group_state",
    86: "delete_share_group_state",
    87: "read_share_group_state_summary",
    88: "streams_group_heartbeat",
    89: "streams_group_describe",
    90: "describe_share_group_offsets",
    91: "alter_share_group_offsets",
    92: "delete_share_group_offsets",
}

HANDLERS: LazyModules[int] = LazyModules(__name__, HANDLER_MODULES)


def scan_handlers() -> dict[int, ModuleType]:
    """Import every module of this package and collect those defining ``API_KEY`` (tests, tools).

    Raises ``RuntimeError`` for two modules claiming one key or a key without ``handle()``.
    """
    handlers: dict[int, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        key = getattr(module, "API_KEY", None)
        if key is None:
            continue  # a helper module shared by handlers
        if key in handlers:
            raise RuntimeError(f"API key {key} is handled by both {handlers[key].__name__} and {module.__name__}")
        if not callable(getattr(module, "handle", None)):
            raise RuntimeError(f"{module.__name__} defines API_KEY {key} but no handle()")
        handlers[key] = module
    return handlers
