"""Client quotas (KIP-13, KIP-55, KIP-546): quota configs per user / client-id / both and their
defaults, Kafka's sampled rates and throttle times, and the broker's enforcement.

- `store.py`: the quota entities and values, DescribeClientQuotas matching and AlterClientQuotas
  validation (Kafka's errors); persisted by a single broker, held by the controller in a cluster
  and pushed to every broker in its image.
- `rate.py`: Kafka's sampled Rate over quota.window.num windows of quota.window.size.seconds.
- `manager.py`: ClientQuotaManager: the quota that applies (Kafka's precedence), one rate per
  quota entity, throttle times. Sans-IO, on an injected millisecond clock.
- `enforce.py`: the broker's hook: Produce and Fetch record their bytes, carry throttle_time_ms
  and mute the connection for that long (KIP-219), so a client that ignores it is held too.
"""

from broker_embedded.quotas.manager import ClientQuotaManager
from broker_embedded.quotas.store import ClientQuotaStore, QuotaOp, QuotaRequestError

__all__ = ["ClientQuotaManager", "ClientQuotaStore", "QuotaOp", "QuotaRequestError"]
