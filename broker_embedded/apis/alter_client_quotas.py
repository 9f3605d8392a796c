"""AlterClientQuotas (API 49): set or remove quota values of user / client-id / ip entities and their
defaults, validate_only honoured, Kafka's per-entity errors (quotas/store.py); ALTER_CONFIGS on the
cluster. A single broker applies and stores them; in a cluster the controller decides and its image
brings them to every broker."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.quotas.store import QuotaEntity, QuotaOp, entity_of
from broker_embedded.security.access import authorize
from broker_embedded.security.authorizer import AclOperation, ResourceType
from kafka_wire.errors import KafkaError
from kafka_wire.protocol.messages import alter_client_quotas_request as rq
from kafka_wire.protocol.messages import alter_client_quotas_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 49


def _response(results: list[tuple[list[tuple[str, str | None]], int, str | None]]) -> rs.AlterClientQuotasResponse:
    return rs.AlterClientQuotasResponse(
        entries=[
            rs.EntryData(
                error_code=code,
                error_message=message,
                entity=[rs.EntityData(entity_type=t, entity_name=n) for t, n in entity],
            )
            for entity, code, message in results
        ]
    )


def handle(
    broker: Broker, ctx: RequestContext, request: rq.AlterClientQuotasRequest
) -> rs.AlterClientQuotasResponse | asyncio.Future[rs.AlterClientQuotasResponse]:
    alterations: list[tuple[QuotaEntity, list[QuotaOp]]] = [
        (
            entity_of((e.entity_type, e.entity_name) for e in entry.entity),
            [QuotaOp(op.key, None if op.remove else float(op.value)) for op in entry.ops],
        )
        for entry in request.entries
    ]
    denied = authorize(ctx, AclOperation.ALTER_CONFIGS, ResourceType.CLUSTER)
    if denied:
        distinct = list(dict.fromkeys(entity for entity, _ in alterations))
        return _response([(list(entity), denied, None) for entity in distinct])
    controller = broker.controller_client
    if controller is None:
        results = broker.client_quotas.store.alter(alterations, bool(request.validate_only))
        return _response([(list(entity), r.code, r.message) for entity, r in results])

    async def on_controller() -> rs.AlterClientQuotasResponse:
        # cluster mode: quotas are controller metadata; its image brings them to every broker
        entries: list[dict[str, Any]] = [
            {"entity": [list(p) for p in entity], "ops": [[op.key, op.value] for op in ops]}
            for entity, ops in alterations
        ]
        try:
            reply = await controller.request(
                "alter_client_quotas", entries=entries, validate_only=bool(request.validate_only)
            )
        except KafkaError as e:
            distinct = list(dict.fromkeys(entity for entity, _ in alterations))
            return _response([(list(entity), int(e.code), str(e)) for entity in distinct])
        return _response([([(t, n) for t, n in entity], code, message) for entity, code, message in reply["results"]])

    return asyncio.ensure_future(on_controller())
