"""pytest-pykafka (pytest_pykafka/plugin.py), tested with pytester in fresh pytest runs."""

from __future__ import annotations

import os

import pytest

from broker_embedded import EmbeddedBroker

pytest_plugins = ["pytester"]

PLUGIN = ["-p", "pytest_pykafka.plugin", "-p", "no:cacheprovider"]


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # a subprocess: the child gets the same sys.path (PYTHONPATH) and no state leaks between runs
    env_path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), os.getcwd()) if p)
    pytester._monkeypatch.setenv("PYTHONPATH", env_path)
    return pytester.runpytest_subprocess(*PLUGIN, "-q", *args, timeout=240)


def test_fixtures_produce_consume_and_scopes(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        from broker_embedded import EmbeddedBroker

        SEEN = []

        def test_function_scope_is_fresh_each_test(kafka_broker):
            assert isinstance(kafka_broker, EmbeddedBroker)
            SEEN.append(kafka_broker.bootstrap_servers)

        def test_second(kafka_broker, kafka_broker_shared):
            assert kafka_broker.bootstrap_servers not in SEEN
            assert kafka_broker_shared.bootstrap_servers != kafka_broker.bootstrap_servers
            SEEN.append(kafka_broker_shared.bootstrap_servers)

        def test_shared_is_shared(kafka_broker_shared):
            assert kafka_broker_shared.bootstrap_servers == SEEN[-1]

        @pytest.mark.kafka_broker(num_partitions=5)
        def test_marker_configs(kafka_broker):
            assert kafka_broker.config["num.partitions"] == 5

        @pytest.mark.kafka_topic(partitions=3)
        def test_roundtrip(kafka_topic, kafka_producer, kafka_consumer, kafka_admin):
            md = kafka_admin.list_topics(kafka_topic, timeout=10)
            assert len(md.topics[kafka_topic].partitions) == 3
            for i in range(10):
                kafka_producer.produce(kafka_topic, key=b"k%d" % i, value=b"v%d" % i, partition=i % 3)
            assert kafka_producer.flush(10) == 0
            kafka_consumer.subscribe([kafka_topic])
            got = []
            for _ in range(100):
                msg = kafka_consumer.poll(0.5)
                if msg is not None and msg.error() is None:
                    got.append(msg.value())
                if len(got) == 10:
                    break
            assert sorted(got) == sorted(b"v%d" % i for i in range(10))

        def test_factory(kafka_topic_factory, kafka_admin):
            a = kafka_topic_factory(partitions=2)
            b = kafka_topic_factory(config={"cleanup.policy": "compact"})
            assert a != b
            md = kafka_admin.list_topics(timeout=10)
            assert len(md.topics[a].partitions) == 2 and b in md.topics
        """
    )
    result = run(pytester)
    result.assert_outcomes(passed=6)


def test_external_bootstrap_runs_the_same_tests_elsewhere(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        def test_uses_external(kafka_broker, kafka_topic, kafka_admin):
            assert kafka_broker.external
            assert kafka_topic in kafka_admin.list_topics(timeout=10).topics

        @pytest.mark.kafka_embedded_only
        def test_internals(kafka_broker):
            kafka_broker.broker
        """
    )
    with EmbeddedBroker() as outside:
        result = run(pytester, f"--kafka-bootstrap={outside.bootstrap_servers}", "-rs")
        # the topic created by the test was deleted afterwards on the external cluster
        from confluent_kafka.admin import AdminClient

        names = AdminClient({"bootstrap.servers": outside.bootstrap_servers}).list_topics(timeout=10).topics
        assert not [n for n in names if n.startswith("test_uses_external")]
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*needs the embedded broker*"])


def test_marker_misuse_is_a_clear_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.kafka_broker(3)
        def test_bad(kafka_broker):
            pass
        """
    )
    result = run(pytester)
    result.stdout.fnmatch_lines(["*kafka_broker takes keyword arguments only*"])
    assert result.ret != 0


def test_xdist_each_worker_has_its_own_broker(pytester: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    pytester.makepyfile(
        """
        import os, pathlib
        import pytest

        @pytest.mark.parametrize("i", range(4))
        def test_worker(i, kafka_broker_shared, kafka_topic):
            worker = os.environ["PYTEST_XDIST_WORKER"]
            out = pathlib.Path(os.environ["OUT_DIR"]) / f"{worker}-{i}"
            out.write_text(kafka_broker_shared.bootstrap_servers)
        """
    )
    out = pytester.mkdir("out")
    pytester._monkeypatch.setenv("OUT_DIR", str(out))
    result = run(pytester, "-n", "2", "-p", "xdist")
    result.assert_outcomes(passed=4)
    by_worker: dict[str, set[str]] = {}
    for f in out.iterdir():
        by_worker.setdefault(f.name.split("-")[0], set()).add(f.read_text())
    assert len(by_worker) == 2, by_worker
    # one shared broker per worker, and the workers' brokers differ
    assert all(len(v) == 1 for v in by_worker.values())
    assert len(set().union(*by_worker.values())) == 2
