"""``SchemaRegistry``: the registry as a context manager on a free port of 127.0.0.1."""

from __future__ import annotations

import threading
from typing import Any

from werkzeug.serving import WSGIRequestHandler, make_server

from .core import Registry
from .http import RegistryApp
from .store import KafkaStore


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:  # no access log on stderr
        pass


class SchemaRegistry:
    """A Confluent-compatible schema registry whose state lives in ``topic`` on ``bootstrap_servers``.

    >>> with SchemaRegistry(bootstrap_servers="127.0.0.1:9092") as sr:
    ...     sr.url  # 'http://127.0.0.1:PORT'
    """

    def __init__(
        self,
        bootstrap_servers: str,
        host: str = "127.0.0.1",
        port: int = 0,
        topic: str = "_schemas",
        default_compatibility: str = "BACKWARD",
        replication_factor: int = 1,
    ) -> None:
        self.bootstrap_servers = bootstrap_servers
        self.host = host
        self.port = port
        self.topic = topic
        self.default_compatibility = default_compatibility
        self.replication_factor = replication_factor
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self.store: KafkaStore | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> SchemaRegistry:
        registry = Registry(self.default_compatibility)
        self.store = KafkaStore(registry, self.bootstrap_servers, self.topic, self.replication_factor)
        self._server = make_server(
            self.host, self.port, RegistryApp(registry, self.store), threaded=True, request_handler=_QuietHandler
        )
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever, name="schema-registry-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self.store is not None:
            self.store.close()
            self.store = None

    def __enter__(self) -> SchemaRegistry:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
