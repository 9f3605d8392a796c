"""Three or more controllers form a Raft quorum by default, in `EmbeddedCluster(brokers=N, controllers=3)` and in
`python -m broker_embedded cluster --controllers 3` (issue 32); one or two keep the shared-directory lock; an
explicit `quorum=` / `--quorum` wins."""

from __future__ import annotations

import pytest

from broker_embedded import __main__ as cli
from broker_embedded import cluster as cluster_module
from broker_embedded.cluster import EmbeddedCluster


@pytest.mark.parametrize(
    ("controllers", "quorum", "expected"),
    [
        (1, None, "lock"),
        (2, None, "lock"),
        (3, None, "raft"),
        (5, None, "raft"),
        (3, "lock", "lock"),
        (2, "raft", "raft"),
    ],
)
def test_the_quorum_follows_the_controller_count(controllers: int, quorum: str | None, expected: str) -> None:
    c = EmbeddedCluster(brokers=1, controllers=controllers, quorum=quorum)
    try:
        assert c.quorum == expected
        assert bool(c.raft_ports) == (expected == "raft")
        assert (c.configs.get("controller.metadata.push.enable") == "false") == (expected == "raft")
    finally:
        c.close()


@pytest.mark.parametrize(("argv", "expected"), [([], None), (["--quorum", "lock"], "lock")])
def test_the_cli_passes_the_count_and_leaves_the_default_to_the_cluster(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], expected: str | None
) -> None:
    seen: dict[str, object] = {}

    def fake(brokers: int, log_dir: str | None, overrides: dict[str, str], log_level: str, controllers: int = 2,
             quorum: str | None = None) -> int:  # fmt: skip
        seen.update(controllers=controllers, quorum=quorum)
        return 0

    monkeypatch.setattr(cluster_module, "run_cluster_cli", fake)
    assert cli.main(["cluster", "--brokers", "1", "--controllers", "3", *argv]) == 0
    assert seen == {"controllers": 3, "quorum": expected}
