"""Client quotas on a fake clock (broker_embedded/quotas): Kafka's sampled rate and throttle time,
the quota precedence of its DefaultQuotaCallback, DescribeClientQuotas matching and
AlterClientQuotas validation (Kafka's messages), persistence."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.quotas.manager import ClientQuotaManager
from broker_embedded.quotas.rate import SampledRate, throttle_time_ms
from broker_embedded.quotas.store import (
    CLIENT_ID,
    IP,
    MATCH_DEFAULT,
    MATCH_EXACT,
    MATCH_SPECIFIED,
    USER,
    ClientQuotaStore,
    QuotaOp,
    QuotaRequestError,
    entity_of,
)
from kafka_wire.errors import ErrorCode

PBR = "producer_byte_rate"


class FakeClock:
    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms


def _set(store: ClientQuotaStore, pairs: list[tuple[str, str | None]], **values: float | None) -> None:
    ((_, result),) = store.alter([(entity_of(pairs), [QuotaOp(k, v) for k, v in values.items()])])
    assert result.code == ErrorCode.NONE, result


def test_rate_pads_to_the_sample_windows_and_throttle_time_is_kafkas() -> None:
    rate = SampledRate(11, 1000)
    rate.record(1000, 0)
    # a first burst is measured over (samples - 1) full windows: 1000 bytes / 10 s
    assert rate.window_size_ms(0) == 10_000
    assert rate.measure(0) == pytest.approx(100.0)
    assert throttle_time_ms(rate, 100.0, 0) == 0
    rate.record(1000, 500)
    # the window: 0.5 s elapsed + 10 padded windows = 10.5 s; 2000 B / 10.5 s against 100 B/s:
    # (190.48 - 100) / 100 x 10.5 s
    assert rate.window_size_ms(500) == 10_500
    assert throttle_time_ms(rate, 100.0, 500) == 9_500
    # a sample whose last event is samples x window old is dropped (then a fresh start: padded)
    assert rate.total(11_500) == 0
    assert rate.window_size_ms(11_500) == 10_000
    # steady traffic: samples + 1 slots (the one overlapping the window), the real elapsed time
    steady = SampledRate(11, 1000)
    for t in range(0, 13_000, 1000):
        steady.record(100, t)
    # at 12 000 the sample of 0 was reused, the one of 1000 is 11 windows old: purged
    assert steady.total(12_000) == 1100
    assert steady.window_size_ms(12_000) == 10_000
    assert steady.measure(12_000) == pytest.approx(110.0)


def test_a_producer_honouring_throttle_time_is_held_at_its_quota() -> None:
    """10x the quota offered; each request waits for its throttle time: the steady rate is the bound."""
    clock = FakeClock()
    store = ClientQuotaStore()
    _set(store, [(CLIENT_ID, "p")], **{PBR: 100_000.0})
    manager = ClientQuotaManager(PBR, store, clock)
    start = clock.ms
    sent_after_warmup = 0
    while clock.ms - start < 60_000:
        throttle = manager.record_and_get_throttle_time_ms("ANONYMOUS", "p", 50_000)
        if clock.ms - start >= 20_000:
            sent_after_warmup += 50_000
        clock.ms += max(throttle, 50)  # unthrottled it would send 1 MB/s
    rate = sent_after_warmup / 40
    assert 0.9 * 100_000 <= rate <= 1.1 * 100_000, rate


def test_quota_precedence_and_shared_rates() -> None:
    store = ClientQuotaStore()
    levels: list[list[tuple[str, str | None]]] = [
        [(USER, "alice"), (CLIENT_ID, "app")],
        [(USER, "alice"), (CLIENT_ID, None)],
        [(USER, "alice")],
        [(USER, None), (CLIENT_ID, "app")],
        [(USER, None), (CLIENT_ID, None)],
        [(USER, None)],
        [(CLIENT_ID, "app")],
        [(CLIENT_ID, None)],
    ]
    for i, pairs in enumerate(levels):
        _set(store, pairs, **{PBR: float(i + 1)})
    manager = ClientQuotaManager(PBR, store, FakeClock())
    expected_tags = [
        ("alice", "app"),
        ("alice", "app"),
        ("alice", ""),
        ("alice", "app"),
        ("alice", "app"),
        ("alice", ""),
        ("", "app"),
        ("", "app"),
    ]
    for i, pairs in enumerate(levels):
        assert manager.quota("alice", "app") == i + 1, pairs
        assert manager.metric_tags("alice", "app") == expected_tags[i]
        _set(store, pairs, **{PBR: None})
    assert manager.quota("alice", "app") is None
    assert not manager.quotas_enabled
    # a user's quota is shared by all its clients; a default client-id quota is per client
    _set(store, [(USER, "bob")], **{PBR: 10.0})
    _set(store, [(CLIENT_ID, None)], **{PBR: 20.0})
    assert manager.metric_tags("bob", "a") == manager.metric_tags("bob", "b") == ("bob", "")
    assert manager.metric_tags("carol", "a") == ("", "a") != manager.metric_tags("carol", "b")
    assert manager.quota("carol", "a") == 20.0
    # another quota key does not count for this manager
    _set(store, [(USER, "dave")], consumer_byte_rate=5.0)
    assert manager.quota("dave", "x") == 20.0


def test_describe_filters_like_kafka() -> None:
    store = ClientQuotaStore()
    _set(store, [(USER, "u1")], **{PBR: 1.0})
    _set(store, [(USER, "u1"), (CLIENT_ID, "c1")], **{PBR: 2.0})
    _set(store, [(USER, None)], **{PBR: 3.0})
    _set(store, [(CLIENT_ID, "c1")], consumer_byte_rate=4.0)
    _set(store, [(IP, "10.0.0.1")], connection_creation_rate=5.0)

    def names(
        components: list[tuple[str, int, str | None]], strict: bool = False
    ) -> set[tuple[tuple[str, str | None], ...]]:
        return {e for e, _ in store.describe(components, strict)}

    assert names([(USER, MATCH_EXACT, "u1")]) == {
        entity_of([(USER, "u1")]),
        entity_of([(USER, "u1"), (CLIENT_ID, "c1")]),
    }
    assert names([(USER, MATCH_EXACT, "u1")], strict=True) == {entity_of([(USER, "u1")])}
    assert names([(USER, MATCH_DEFAULT, None)]) == {entity_of([(USER, None)])}
    assert names([(USER, MATCH_SPECIFIED, None)], strict=True) == {entity_of([(USER, "u1")]), entity_of([(USER, None)])}
    assert names([(CLIENT_ID, MATCH_SPECIFIED, None)]) == {
        entity_of([(USER, "u1"), (CLIENT_ID, "c1")]),
        entity_of([(CLIENT_ID, "c1")]),
    }
    assert len(names([])) == 5
    assert names([], strict=True) == set()
    for components, code, message in [
        ([("", MATCH_EXACT, "x")], ErrorCode.INVALID_REQUEST, "Invalid empty entity type."),
        ([("topic", MATCH_EXACT, "x")], ErrorCode.UNSUPPORTED_VERSION, "Unsupported entity type topic"),
        (
            [(USER, MATCH_EXACT, "a"), (USER, MATCH_DEFAULT, None)],
            ErrorCode.INVALID_REQUEST,
            "Entity type user cannot appear more than once in the filter.",
        ),
        (
            [(USER, MATCH_EXACT, None)],
            ErrorCode.INVALID_REQUEST,
            "Request specified MATCH_TYPE_EXACT, but set match string to null.",
        ),
        ([(USER, 7, None)], ErrorCode.INVALID_REQUEST, "Unknown match type 7"),
        ([(IP, MATCH_SPECIFIED, None), (USER, MATCH_SPECIFIED, None)], ErrorCode.INVALID_REQUEST, None),
    ]:
        with pytest.raises(QuotaRequestError) as e:
            store.describe(components, False)
        assert e.value.code == code
        if message is not None:
            assert e.value.message == message


def test_alter_validation_validate_only_and_persistence(tmp_path: Path) -> None:
    path = tmp_path / ClientQuotaStore.FILE_NAME
    store = ClientQuotaStore(path)
    u = entity_of([(USER, "u")])
    cases: list[tuple[list[tuple[str, str | None]], list[QuotaOp], str]] = [
        ([(USER, "u")], [QuotaOp("bogus", 1.0)], "Invalid configuration key bogus"),
        ([(USER, "u")], [QuotaOp(PBR, 0.0)], f"Quota {PBR} must be greater than 0"),
        ([(USER, "u")], [QuotaOp(PBR, 1.5)], f"{PBR} cannot be a fractional value."),
        ([(USER, "u")], [QuotaOp(PBR, 1e300)], f"Proposed value for {PBR} is too large for a LONG."),
        ([(USER, "")], [QuotaOp(PBR, 1.0)], "Empty user not supported"),
        ([("topic", "t")], [QuotaOp(PBR, 1.0)], "Unhandled client quota entity type: topic"),
        ([], [QuotaOp(PBR, 1.0)], "Invalid empty client quota entity"),
        ([(IP, "10.0.0.1")], [QuotaOp(PBR, 1.0)], f"Invalid configuration key {PBR}"),
    ]
    for pairs, ops, message in cases:
        ((_, result),) = store.alter([(entity_of(pairs), ops)])
        assert (result.code, result.message) == (ErrorCode.INVALID_REQUEST, message)
    # a bad op fails its entity only; the other entity of the request applies
    results = store.alter(
        [
            (u, [QuotaOp(PBR, 100.0), QuotaOp("bogus", 1.0)]),
            (entity_of([(CLIENT_ID, "c")]), [QuotaOp("request_percentage", 12.5)]),
        ]
    )
    assert [r.code for _, r in results] == [ErrorCode.INVALID_REQUEST, ErrorCode.NONE]
    assert store.entities == {entity_of([(CLIENT_ID, "c")]): {"request_percentage": 12.5}}
    ((_, dup),) = store.alter([(u, [QuotaOp(PBR, 1.0), QuotaOp(PBR, 2.0)])])
    assert dup.message is not None and dup.message.startswith("Ignoring duplicate entity")
    # validate_only answers the same and changes nothing
    ((_, ok),) = store.alter([(u, [QuotaOp(PBR, 100.0)])], validate_only=True)
    assert ok.code == ErrorCode.NONE and u not in store.entities
    _set(store, [(USER, "u")], **{PBR: 100.0})
    reloaded = ClientQuotaStore(path)
    reloaded.load()
    assert reloaded.entities == store.entities
    # removing the last value removes the entity
    _set(store, [(USER, "u")], **{PBR: None})
    assert u not in store.entities


def test_controller_state_decides_persists_and_pushes_quotas(tmp_path: Path) -> None:
    from broker_embedded.config import BrokerConfig
    from broker_embedded.controller.state import ControllerState

    state = ControllerState(BrokerConfig({}), tmp_path)
    version = state.metadata_version
    results = state.alter_client_quotas(
        [
            {"entity": [[USER, "u"], [CLIENT_ID, None]], "ops": [[PBR, 1024.0]]},
            {"entity": [[USER, "v"]], "ops": [["bogus", 1.0]]},
        ],
        validate_only=False,
    )
    assert results == [
        [[[CLIENT_ID, None], [USER, "u"]], 0, None],
        [[[USER, "v"]], int(ErrorCode.INVALID_REQUEST), "Invalid configuration key bogus"],
    ]
    assert state.metadata_version == version + 1  # saved once
    assert state.image()["client_quotas"] == [{"entity": [[CLIENT_ID, None], [USER, "u"]], "quotas": {PBR: 1024.0}}]
    state.alter_client_quotas([{"entity": [[USER, "w"]], "ops": [[PBR, 1.0]]}], validate_only=True)
    assert state.metadata_version == version + 1  # validate_only: nothing saved
    reloaded = ControllerState(BrokerConfig({}), tmp_path)
    assert reloaded.client_quotas.entities == state.client_quotas.entities
    # a broker applying the image gets the same quotas (and its managers see them)
    broker_store = ClientQuotaStore()
    manager = ClientQuotaManager(PBR, broker_store, FakeClock())
    broker_store.load_json(state.image()["client_quotas"])
    assert manager.quota("u", "any-client") == 1024.0
