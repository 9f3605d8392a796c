"""Share sessions (KIP-932): Kafka's epoch rules for ShareFetch / ShareAcknowledge, limits, disconnects."""

from __future__ import annotations

import pytest

from broker_embedded.share import ContextKind, ShareErrorCode, SharePartitionError, ShareSessionCache
from broker_embedded.share.session import next_epoch

T0, T1 = ("topic-a", 0), ("topic-a", 1)


def code_of(fn, *args) -> ShareErrorCode:  # type: ignore[no-untyped-def]
    with pytest.raises(SharePartitionError) as e:
        fn(*args)
    return e.value.code


def test_open_fetch_forget_close() -> None:
    cache = ShareSessionCache()
    ctx = cache.new_context("g", "m", 0, [T0], [], False, "c1")
    assert (ctx.kind, ctx.partitions) == (ContextKind.FULL, (T0,))
    assert cache.get("g", "m").epoch == 1  # type: ignore[union-attr]
    ctx = cache.new_context("g", "m", 1, [T1], [], True, "c1")
    assert (ctx.kind, ctx.partitions) == (ContextKind.SESSION, (T0, T1))
    ctx = cache.new_context("g", "m", 2, [], [T0], False, "c1")
    assert ctx.partitions == (T1,)
    assert cache.acknowledge_session_update("g", "m", 3) is False  # ShareAcknowledge moves the epoch too
    assert code_of(cache.new_context, "g", "m", 3, [], [], False, "c1") == ShareErrorCode.INVALID_SHARE_SESSION_EPOCH
    assert cache.new_context("g", "m", -1, [], [], True, "c1").kind == ContextKind.FINAL
    assert cache.release_session("g", "m") == [T1]
    assert code_of(cache.new_context, "g", "m", 5, [], [], False, "c1") == ShareErrorCode.SHARE_SESSION_NOT_FOUND
    assert code_of(cache.new_context, "g", "m", -1, [], [], False, "c1") == ShareErrorCode.SHARE_SESSION_NOT_FOUND
    assert code_of(cache.release_session, "g", "m") == ShareErrorCode.SHARE_SESSION_NOT_FOUND


def test_bad_epochs_and_initial_with_acknowledgements() -> None:
    cache = ShareSessionCache()
    assert code_of(cache.new_context, "g", "m", 0, [T0], [], True, "c") == ShareErrorCode.INVALID_REQUEST
    assert code_of(cache.acknowledge_session_update, "g", "m", 0) == ShareErrorCode.INVALID_SHARE_SESSION_EPOCH
    assert code_of(cache.acknowledge_session_update, "g", "m", 1) == ShareErrorCode.SHARE_SESSION_NOT_FOUND
    cache.new_context("g", "m", 0, [T0], [], False, "c")
    assert code_of(cache.acknowledge_session_update, "g", "m", 7) == ShareErrorCode.INVALID_SHARE_SESSION_EPOCH
    assert cache.acknowledge_session_update("g", "m", -1) is True
    # Epoch 0 again replaces the session (epoch back to 1, partitions reset).
    cache.new_context("g", "m", 1, [T1], [], False, "c")
    cache.new_context("g", "m", 0, [T0], [], False, "c")
    assert cache.get("g", "m").epoch == 1 and list(cache.get("g", "m").partitions) == [T0]  # type: ignore[union-attr]
    assert next_epoch(2**31 - 1) == 1 and next_epoch(-1) == -1


def test_session_limit() -> None:
    cache = ShareSessionCache(max_entries=2)
    cache.new_context("g", "a", 0, [T0], [], False, "c1")
    cache.new_context("g", "b", 0, [T0], [], False, "c2")
    assert code_of(cache.new_context, "g", "c", 0, [T0], [], False, "c3") == ShareErrorCode.SHARE_SESSION_LIMIT_REACHED
    cache.new_context("g", "a", 0, [T1], [], False, "c1")  # re-opening one's own session fits
    assert len(cache) == 2


def test_disconnect_ends_only_the_connections_current_session() -> None:
    cache = ShareSessionCache()
    cache.new_context("g", "m", 0, [T0], [], False, "c1")
    cache.new_context("g", "m", 0, [T0], [], False, "c2")  # the member reconnected elsewhere
    assert cache.on_disconnect("c1") is None and cache.get("g", "m") is not None
    ended = cache.on_disconnect("c2")
    assert ended is not None and (ended.group_id, ended.member_id) == ("g", "m")
    assert cache.get("g", "m") is None and cache.on_disconnect("c2") is None
