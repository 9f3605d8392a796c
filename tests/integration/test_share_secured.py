"""Share-partition state over a secured inter-broker listener (issue 31): a share-partition leader's
``RemotePersister`` reaches the share coordinator with the broker's own TLS context and SASL login
(``InterBrokerSecurity``, as the replication fetchers use it), so an ``EmbeddedCluster`` with a
TLS/SASL inter-broker listener keeps share state with the share coordinator (Kafka's
DefaultStatePersister) instead of in the leader's memory.

Ours only, on a secure single broker (inter-broker listener SASL_SSL, PLAIN as admin): the same
channel the cluster uses sends RPCs 10 (key type 2) and 83-85 and reads the state back; a wrong
password and a plaintext connection are refused by that listener.
"""

from __future__ import annotations

import pytest

from broker_embedded import EmbeddedBroker
from broker_embedded.config import BrokerConfig
from broker_embedded.group.share_state_host import CoordinatorChannel, remote_persister_wanted
from broker_embedded.security.client import InterBrokerSecurity
from broker_embedded.share.remote_persister import RemotePersister, StatePending
from broker_embedded.share.state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupStateKey,
    ShareSnapshotValue,
    ShareUpdateValue,
)
from kafka_wire.protocol.messages import metadata_request

KEY = ShareGroupStateKey("secured-g", "1d965fa7-9733-48d5-8032-c8b37cdd4166", 0)


def test_share_state_goes_to_the_coordinator_over_tls_and_sasl() -> None:
    with EmbeddedBroker(secure=True) as b:
        assert b.secure is not None
        assert remote_persister_wanted(b.config)  # a secured cluster no longer keeps state in memory
        host, port = b.bootstrap("SASL_SSL").rsplit(":", 1)
        own = (host, int(port))
        inter = InterBrokerSecurity(b.config)
        assert inter.listener.uses_tls and inter.listener.uses_sasl
        channel = CoordinatorChannel(lambda: own, security=lambda: inter)
        assert channel.locate(KEY) == own  # FindCoordinator key type 2 over SASL_SSL
        persister = RemotePersister(channel.locate, channel.send, retry_timeout_s=20)
        try:
            persister.initialize(KEY, ShareSnapshotValue(0, 0, 3, 5, 0, 0, ()))
            batch = PersisterStateBatch(7, 9, RecordState.AVAILABLE, 2)
            persister.write(KEY, [ShareUpdateValue(0, 3, 7, (batch,))])
            with pytest.raises(StatePending):
                persister.read(KEY, 3)
            assert persister.wait_idle(30)
            state = persister.read(KEY, 3)
            assert persister.failed == 0 and persister.fenced == set()
            assert state is not None and state.start_offset == 7 and state.state_batches == (batch,)
        finally:
            persister.close()

        # the listener checks what the channel presents: a wrong password, no TLS/SASL at all
        configs = b.secure.broker_configs()
        configs["sasl.jaas.config"] = configs["sasl.jaas.config"].replace(b.secure.users["admin"], "wrong", 1)
        wrong = CoordinatorChannel(lambda: own, security=lambda: InterBrokerSecurity(BrokerConfig(configs)))
        metadata = metadata_request.MetadataRequest(topics=[])
        with pytest.raises(OSError, match="SASL|[Aa]uthentication"):
            wrong.send(own, 3, metadata, 12)
        with pytest.raises(OSError):
            CoordinatorChannel(lambda: own).send(own, 3, metadata, 12)
        assert channel.send(own, 3, metadata, 12).brokers  # the right login still gets in
