"""One module per Kafka API, mirroring the protocol (like franz-go kfake's ``00_produce.go``).

Each module defines ``API_KEY`` and ``handle(broker, ctx, request)`` returning the response
object, an ``asyncio.Future`` of one (requests parked in the purgatory), or ``None`` when the
protocol sends no response (acks=0 produce).
"""

from __future__ import annotations

from types import ModuleType

from broker_embedded.apis import (
    alter_configs,
    api_versions,
    create_partitions,
    create_topics,
    delete_groups,
    delete_records,
    delete_topics,
    describe_cluster,
    describe_configs,
    describe_groups,
    fetch,
    find_coordinator,
    heartbeat,
    incremental_alter_configs,
    init_producer_id,
    join_group,
    leave_group,
    list_groups,
    list_offsets,
    metadata,
    offset_commit,
    offset_delete,
    offset_fetch,
    offset_for_leader_epoch,
    produce,
    sync_group,
)

HANDLERS: dict[int, ModuleType] = {
    m.API_KEY: m
    for m in (
        produce,
        fetch,
        list_offsets,
        metadata,
        api_versions,
        create_topics,
        delete_topics,
        delete_records,
        init_producer_id,
        describe_configs,
        alter_configs,
        create_partitions,
        incremental_alter_configs,
        describe_cluster,
        find_coordinator,
        join_group,
        sync_group,
        heartbeat,
        leave_group,
        offset_commit,
        offset_fetch,
        describe_groups,
        list_groups,
        delete_groups,
        offset_delete,
        offset_for_leader_epoch,
    )
}
