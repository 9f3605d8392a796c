"""Helpers for tests that drive confluent-kafka's JSON Schema and Protobuf serdes: message classes
compiled from .proto text with protoc (grpcio-tools) into a private descriptor pool."""

from __future__ import annotations

import os
import tempfile
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.message_factory import GetMessageClass


def proto_classes(files: dict[str, str], main: str) -> tuple[dict[str, Any], descriptor_pool.DescriptorPool]:
    """The message classes of ``main`` (by full name, nested ones too) compiled with ``files`` (import
    path -> text) on the include path; the well-known types come from the installed protobuf."""
    import grpc_tools
    from grpc_tools import _protoc_compiler

    wkt = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            path = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        out = os.path.join(tmp, "out.pb")
        rc = _protoc_compiler.run_main(
            [b"protoc", f"-I{tmp}".encode(), f"-I{wkt}".encode(), b"--include_imports",
             f"--descriptor_set_out={out}".encode(), main.encode()]
        )  # fmt: skip
        assert rc == 0, f"protoc failed on {main}"
        fds = descriptor_pb2.FileDescriptorSet()
        with open(out, "rb") as f:
            fds.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for fdp in fds.file:
        pool.Add(fdp)
    classes: dict[str, Any] = {}

    def collect(desc: Any) -> None:
        classes[desc.full_name] = GetMessageClass(desc)
        for nested in desc.nested_types:
            collect(nested)

    for desc in pool.FindFileByName(main).message_types_by_name.values():
        collect(desc)
    return classes, pool
