"""One exception base users can catch (issue 28): every public exception class of the packages users
call (the connector, offsets, the schema registry, the clients, the consumer group, the CLI, the
embedded broker's config) derives from `PykafkaError`, and keeps its builtin base where it had one."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from kafka_wire.errors import PykafkaError

USER_FACING = ["connector", "offsets", "schema_registry", "kafka_wire", "consumer_group", "pykafka_cli"]
# public names that are not errors for users: each with its reason
NOT_FOR_USERS = {
    # a signal inside the protobuf text printer, caught where it is raised
    "schema_registry.formats.protobuf_text.Unprintable",
}


def _modules(package: str) -> list[str]:
    root = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        names.append(info.name)
    return names


def _public_exceptions() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for package in USER_FACING:
        for name in _modules(package):
            if name.endswith("__main__"):
                continue
            module = importlib.import_module(name)
            for attr, obj in vars(module).items():
                if (
                    inspect.isclass(obj)
                    and issubclass(obj, BaseException)
                    and obj.__module__ == name
                    and not attr.startswith("_")
                    and f"{name}.{attr}" not in NOT_FOR_USERS
                ):
                    found.append(obj)
    return found


def test_every_public_error_derives_from_pykafka_error() -> None:
    errors = _public_exceptions()
    assert len(errors) > 30, [e.__qualname__ for e in errors]  # the walk found the packages' errors
    outside = [f"{e.__module__}.{e.__qualname__}" for e in errors if not issubclass(e, PykafkaError)]
    assert not outside, f"errors users can meet that `except PykafkaError` misses: {outside}"


def test_builtin_bases_are_kept() -> None:
    from broker_embedded.config import ConfigError
    from connector.delta.errors import DeltaCommitError
    from connector.option_names import SourceOptionError
    from kafka_wire.client.connection import ConnectionClosedError

    assert issubclass(SourceOptionError, ValueError)
    assert issubclass(DeltaCommitError, RuntimeError)
    assert issubclass(ConnectionClosedError, ConnectionError)
    assert issubclass(ConfigError, ValueError) and issubclass(ConfigError, PykafkaError)


def test_catching_the_base() -> None:
    from connector.option_names import SourceOptionError

    with pytest.raises(PykafkaError):
        raise SourceOptionError("startingOffset: did you mean startingOffsets?")
