"""AlterUserScramCredentials (API 51): upsert (salt + client-computed SaltedPassword) or delete SCRAM
credentials, with Kafka's per-user errors; ALTER on the cluster."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING

from broker_embedded.security.access import authorize
from broker_embedded.security.authorizer import AclOperation, ResourceType
from broker_embedded.security.scram import (
    MAX_ITERATIONS,
    MECHANISM_NAMES,
    MIN_ITERATIONS,
    credential_from_salted_password,
)
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import alter_user_scram_credentials_request as rq
from kafka_wire.protocol.messages import alter_user_scram_credentials_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 51


def handle(
    broker: Broker, ctx: RequestContext, request: rq.AlterUserScramCredentialsRequest
) -> rs.AlterUserScramCredentialsResponse | asyncio.Future[rs.AlterUserScramCredentialsResponse]:
    security = ctx.session.security if ctx.session is not None else None
    users = list(dict.fromkeys([d.name for d in request.deletions] + [u.name for u in request.upsertions]))
    denied = authorize(ctx, AclOperation.ALTER, ResourceType.CLUSTER)
    if denied or security is None:
        err = denied or ErrorCode.UNKNOWN_SERVER_ERROR
        return rs.AlterUserScramCredentialsResponse(
            results=[rs.AlterUserScramCredentialsResult(user=u, error_code=err, error_message=None) for u in users]
        )
    errors: dict[str, tuple[ErrorCode, str]] = {}
    pairs = Counter(
        [(d.name, d.mechanism) for d in request.deletions] + [(u.name, u.mechanism) for u in request.upsertions]
    )
    for (name, mechanism), n in pairs.items():
        if n > 1:
            errors.setdefault(
                name, (ErrorCode.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request")
            )
        if mechanism not in MECHANISM_NAMES:
            errors.setdefault(name, (ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"))
        if not name:
            errors.setdefault(name, (ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"))
    for u in request.upsertions:
        if u.iterations < MIN_ITERATIONS:
            errors.setdefault(
                u.name, (ErrorCode.UNACCEPTABLE_CREDENTIAL, f"Too few iterations (minimum {MIN_ITERATIONS})")
            )
        elif u.iterations > MAX_ITERATIONS:
            errors.setdefault(
                u.name, (ErrorCode.UNACCEPTABLE_CREDENTIAL, f"Too many iterations (maximum {MAX_ITERATIONS})")
            )
        elif not u.salt or not u.salted_password:
            errors.setdefault(u.name, (ErrorCode.UNACCEPTABLE_CREDENTIAL, "Salt and salted password must not be empty"))
    store = security.scram
    for d in request.deletions:
        if d.name not in errors and store.get(d.name, MECHANISM_NAMES.get(d.mechanism, "")) is None:
            errors[d.name] = (ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist")
    # a user's changes apply all or nothing
    deletions = [(d.name, MECHANISM_NAMES[d.mechanism]) for d in request.deletions if d.name not in errors]
    upserts = [
        (
            u.name,
            MECHANISM_NAMES[u.mechanism],
            credential_from_salted_password(
                MECHANISM_NAMES[u.mechanism], bytes(u.salt), bytes(u.salted_password), u.iterations
            ),
        )
        for u in request.upsertions
        if u.name not in errors
    ]

    def response() -> rs.AlterUserScramCredentialsResponse:
        return rs.AlterUserScramCredentialsResponse(
            results=[
                rs.AlterUserScramCredentialsResult(
                    user=u,
                    error_code=errors.get(u, (ErrorCode.NONE, None))[0],
                    error_message=errors.get(u, (None, None))[1],
                )
                for u in users
            ]
        )

    if not deletions and not upserts:
        return response()
    if broker.controller_client is None:
        for name, mechanism in deletions:
            store.delete(name, mechanism)
        for name, mechanism, credential in upserts:
            store.upsert(name, mechanism, credential)
        security.scram_changed()
        return response()
    controller = broker.controller_client

    async def on_controller() -> rs.AlterUserScramCredentialsResponse:
        # cluster mode: credentials are controller metadata; the image brings them to every broker
        try:
            await controller.request(
                "alter_scram",
                deletions=[list(d) for d in deletions],
                upserts=[[n, m, c.to_json()] for n, m, c in upserts],
            )
        except KafkaError as e:
            for name in {d[0] for d in deletions} | {u[0] for u in upserts}:
                errors[name] = (e.code, str(e))
        return response()

    return asyncio.ensure_future(on_controller())
