"""The PROTOBUF schema type: ``.proto`` text compiled by protoc (``grpcio-tools`` ships it as a
library, the same compiler Google's tooling uses; a pure-Python parser would leave type resolution,
imports and the error messages to us), or a base64 ``FileDescriptorProto`` (what confluent-kafka's
Python serializer registers); both become descriptors in a ``protobuf`` ``DescriptorPool``.
References are other registered Protobuf schemas named by their import path; the well-known types
(``google/protobuf/*``, ``google/type/*``, ``confluent/*``) are built in, as in Confluent.

Compatibility is Confluent's Protobuf diff: fields are matched by number, messages and enums by
name; a difference whose type is not in :data:`COMPATIBLE` breaks BACKWARD. Scalars may change
within a wire-compatible group (int32/int64/uint32/uint64/bool/enum; sint32/sint64; string/bytes;
fixed32/sfixed32; fixed64/sfixed64).
"""

from __future__ import annotations

import base64
import binascii
import importlib
import os
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.message import DecodeError

from .. import errors as E
from .base import Reference
from .protobuf_text import Unprintable, normalized, to_text

# Confluent's protobuf-provider diff/SchemaDiff.COMPATIBLE_CHANGES
COMPATIBLE = frozenset(
    """MESSAGE_ADDED MESSAGE_MOVED ENUM_ADDED ENUM_REMOVED ENUM_CONST_ADDED ENUM_CONST_CHANGED ENUM_CONST_REMOVED
    FIELD_ADDED FIELD_REMOVED FIELD_NAME_CHANGED FIELD_STRING_OR_BYTES_LABEL_CHANGED ONEOF_ADDED ONEOF_REMOVED
    ONEOF_FIELD_ADDED""".split()
)
MAIN_FILE = "schema.proto"
FDP = descriptor_pb2.FieldDescriptorProto
_SCALAR_GROUP = {
    FDP.TYPE_INT32: "GENERAL_NUMBER",
    FDP.TYPE_INT64: "GENERAL_NUMBER",
    FDP.TYPE_UINT32: "GENERAL_NUMBER",
    FDP.TYPE_UINT64: "GENERAL_NUMBER",
    FDP.TYPE_BOOL: "GENERAL_NUMBER",
    FDP.TYPE_ENUM: "GENERAL_NUMBER",
    FDP.TYPE_SINT32: "SIGNED_NUMBER",
    FDP.TYPE_SINT64: "SIGNED_NUMBER",
    FDP.TYPE_STRING: "STRING_OR_BYTES",
    FDP.TYPE_BYTES: "STRING_OR_BYTES",
    FDP.TYPE_FIXED32: "FIXED32",
    FDP.TYPE_SFIXED32: "FIXED32",
    FDP.TYPE_FIXED64: "FIXED64",
    FDP.TYPE_SFIXED64: "FIXED64",
    FDP.TYPE_FLOAT: "FLOAT",
    FDP.TYPE_DOUBLE: "DOUBLE",
}
_BUILTIN_MODULES = [
    *(
        f"google.protobuf.{m}_pb2"
        for m in (
            "any",
            "api",
            "descriptor",
            "duration",
            "empty",
            "field_mask",
            "source_context",
            "struct",
            "timestamp",
            "type",
            "wrappers",
        )
    ),
    *(
        f"google.type.{m}_pb2"
        for m in (
            "calendar_period",
            "color",
            "date",
            "datetime",
            "dayofweek",
            "decimal",
            "expr",
            "fraction",
            "interval",
            "latlng",
            "money",
            "month",
            "phone_number",
            "postal_address",
            "quaternion",
            "timeofday",
        )
    ),
    "confluent_kafka.schema_registry.confluent.meta_pb2",
    "confluent_kafka.schema_registry.confluent.types.decimal_pb2",
]


def is_builtin(name: str) -> bool:
    return name.startswith(("confluent/", "google/protobuf/", "google/type/"))


_builtins: dict[str, descriptor_pb2.FileDescriptorProto] | None = None
_builtins_lock = threading.Lock()


def builtin_files() -> dict[str, descriptor_pb2.FileDescriptorProto]:
    """The built-in files by name, in dependency order (from the generated modules that are installed)."""
    global _builtins
    with _builtins_lock:
        if _builtins is None:
            out: dict[str, descriptor_pb2.FileDescriptorProto] = {}
            for mod in _BUILTIN_MODULES:
                try:
                    desc = importlib.import_module(mod).DESCRIPTOR
                except ImportError:
                    continue
                fdp = descriptor_pb2.FileDescriptorProto()
                fdp.ParseFromString(desc.serialized_pb)
                out[fdp.name] = fdp
            _builtins = out
        return _builtins


@dataclass
class ProtoSchema:
    """A parsed Protobuf schema: its file, the (non-built-in) files it imports by name, and a pool."""

    file: descriptor_pb2.FileDescriptorProto
    deps: dict[str, descriptor_pb2.FileDescriptorProto] = field(default_factory=dict)
    _pool: Any = None

    def named(self, name: str) -> descriptor_pb2.FileDescriptorProto:
        out = descriptor_pb2.FileDescriptorProto()
        out.CopyFrom(self.file)
        out.name = name
        return out

    def pool(self) -> descriptor_pool.DescriptorPool:
        if self._pool is None:
            self._pool = build_pool(self.file, self.deps)
        return self._pool

    def serialized(self) -> str:
        """Confluent's ``format=serialized``: the base64 ``FileDescriptorProto``."""
        return base64.standard_b64encode(self.file.SerializeToString()).decode("ascii")


def build_pool(
    main: descriptor_pb2.FileDescriptorProto, deps: dict[str, descriptor_pb2.FileDescriptorProto]
) -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    added: set[str] = set()
    files = {**builtin_files(), **deps}

    def add(fdp: descriptor_pb2.FileDescriptorProto, stack: tuple[str, ...]) -> None:
        if fdp.name in added:
            return
        for dep in fdp.dependency:
            if dep in stack:
                raise E.invalid_schema(f"import cycle through {dep!r}")
            if dep not in files:
                raise E.invalid_schema(f"import {dep!r} is neither a reference nor a built-in type")
            add(files[dep], (*stack, dep))
        try:
            pool.Add(fdp)
        except (TypeError, ValueError, KeyError) as e:
            raise E.invalid_schema(f"{fdp.name}: {e}") from None
        added.add(fdp.name)

    add(main, (main.name,))
    return pool


def _decode_descriptor(schema_str: str) -> descriptor_pb2.FileDescriptorProto | None:
    """The ``FileDescriptorProto`` a base64 schema string holds, or None if it is not one."""
    text = schema_str.strip()
    if not text or any(c.isspace() for c in text):
        return None
    try:
        raw = base64.b64decode(text, validate=True)
        fdp = descriptor_pb2.FileDescriptorProto()
        fdp.ParseFromString(raw)
    except (binascii.Error, ValueError, DecodeError):
        return None
    return fdp


_protoc_lock = threading.Lock()


def compile_text(text: str, deps: dict[str, descriptor_pb2.FileDescriptorProto]) -> descriptor_pb2.FileDescriptorProto:
    """``.proto`` text -> its ``FileDescriptorProto`` with protoc; imports come from ``deps`` and the
    built-ins (handed to protoc as a descriptor set, so a reference registered as a descriptor works too)."""
    try:
        from grpc_tools import _protoc_compiler
    except ImportError:  # pragma: no cover - the avro extra installs grpcio-tools
        raise E.invalid_schema("Protobuf text needs protoc: install grpcio-tools (the avro extra)") from None
    for imported in _imports(text):
        if imported not in deps and not is_builtin(imported):
            raise E.invalid_schema(f"import {imported!r} is neither a schema reference nor a built-in type")
    with tempfile.TemporaryDirectory(prefix="pykafka-proto-") as tmp:
        with open(os.path.join(tmp, MAIN_FILE), "w", encoding="utf-8") as f:
            f.write(text)
        given = descriptor_pb2.FileDescriptorSet()
        given.file.extend([*builtin_files().values(), *(d for n, d in deps.items() if n not in builtin_files())])
        given_path = os.path.join(tmp, "imports.pb")
        with open(given_path, "wb") as f:
            f.write(given.SerializeToString())
        out_path = os.path.join(tmp, "out.pb")
        with _protoc_lock:
            # get_protos reports errors as an exception (run_main only prints them), but knows no
            # descriptor set: errors about imports alone are left to run_main, which has them
            try:
                _protoc_compiler.get_protos(MAIN_FILE.encode(), [tmp.encode(), _wkt_include().encode()])
            except _protoc_compiler.ProtocErrors as e:
                if not _only_import_errors(e) or not (deps or _imports_beyond_wkt(text)):
                    msgs = "; ".join(
                        f"line {x.line + 1} column {x.column + 1}: {x.message.decode(errors='replace')}"
                        for x in e.errors()
                    )
                    raise E.invalid_schema(msgs) from None
            rc = _protoc_compiler.run_main(
                [
                    b"protoc",
                    f"--proto_path={tmp}".encode(),
                    f"--descriptor_set_in={given_path}".encode(),
                    f"--descriptor_set_out={out_path}".encode(),
                    MAIN_FILE.encode(),
                ]
            )
        if rc != 0 or not os.path.exists(out_path):
            raise E.invalid_schema("protoc could not compile the schema (unknown import or type)")
        result = descriptor_pb2.FileDescriptorSet()
        with open(out_path, "rb") as f:
            result.ParseFromString(f.read())
        return result.file[-1]


def _only_import_errors(e: Any) -> bool:
    msgs = [x.message.decode(errors="replace") for x in e.errors()]
    return all("not found" in m or "not defined" in m or "Import" in m for m in msgs)


def _imports_beyond_wkt(text: str) -> bool:

    return any(not m.startswith("google/protobuf/") for m in _imports(text))


def _imports(text: str) -> list[str]:
    import re

    return re.findall(r'import\s+(?:public\s+|weak\s+)?"([^"]+)"', text)


def _wkt_include() -> str:
    import grpc_tools

    return os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")


class ProtobufFormat:
    name = "PROTOBUF"

    def canonical(self, schema_str: str) -> str:
        fdp = _decode_descriptor(schema_str)
        if fdp is not None:  # one encoding per descriptor (the client's serializer sends this form)
            fdp.name = MAIN_FILE
            return base64.standard_b64encode(fdp.SerializeToString(deterministic=True)).decode("ascii")
        if not schema_str.strip():
            raise E.invalid_schema("empty Protobuf schema")
        return schema_str.strip() + "\n"

    def parse(self, canon: str, refs: list[Reference]) -> ProtoSchema:
        deps: dict[str, descriptor_pb2.FileDescriptorProto] = {}
        for ref in refs:
            if ref.schema_type != "PROTOBUF":
                raise E.invalid_schema(f"reference {ref.name!r} is {ref.schema_type}, not PROTOBUF")
            if is_builtin(ref.name):
                continue
            deps.update(ref.parsed.deps)
            deps[ref.name] = ref.parsed.named(ref.name)
        fdp = _decode_descriptor(canon)
        if fdp is None:
            fdp = compile_text(canon, deps)
        fdp.name = MAIN_FILE
        parsed = ProtoSchema(fdp, deps)
        parsed.pool()  # every type resolves
        return parsed

    def stored_form(self, canon: str, parsed: ProtoSchema) -> str:
        """A schema registered as a descriptor is stored as .proto text, as Confluent stores it (when the
        text compiles back to the same descriptor; otherwise the descriptor itself)."""
        if _decode_descriptor(canon) is None:
            return canon
        return text_if_equivalent(parsed.file, parsed.deps) or canon

    def backward_messages(self, old: ProtoSchema, new: ProtoSchema) -> list[str]:
        diff = _Diff(old, new)
        if old.file.package != new.file.package:
            diff.add("PACKAGE_CHANGED", "")
        diff.types(list(old.file.message_type), list(new.file.message_type), old.file.enum_type, new.file.enum_type, "")
        return [f"{kind} at {path or '/'}" for kind, path in diff.differences if kind not in COMPATIBLE]


class _Diff:
    def __init__(self, old: ProtoSchema, new: ProtoSchema) -> None:
        self.sides = (old, new)
        self.differences: list[tuple[str, str]] = []
        self.seen: set[tuple[str, str]] = set()

    def add(self, kind: str, path: str) -> None:
        self.differences.append((kind, path))

    def types(self, omsgs: list[Any], nmsgs: list[Any], oenums: Any, nenums: Any, path: str) -> None:
        o = {m.name: (i, m) for i, m in enumerate(x for x in omsgs if not x.options.map_entry)}
        n = {m.name: (i, m) for i, m in enumerate(x for x in nmsgs if not x.options.map_entry)}
        for name in sorted(set(o) | set(n)):
            p = f"{path}/{name}"
            if name not in n:
                self.add("MESSAGE_REMOVED", p)
            elif name not in o:
                self.add("MESSAGE_ADDED", p)
            else:
                self.message(o[name][1], n[name][1], p)
                if o[name][0] != n[name][0]:
                    self.add("MESSAGE_MOVED", p)
        oe, ne = {e.name: e for e in oenums}, {e.name: e for e in nenums}
        for name in sorted(set(oe) | set(ne)):
            p = f"{path}/{name}"
            if name not in ne:
                self.add("ENUM_REMOVED", p)
            elif name not in oe:
                self.add("ENUM_ADDED", p)
            else:
                ov = {v.number: v.name for v in oe[name].value}
                nv = {v.number: v.name for v in ne[name].value}
                for num in set(ov) | set(nv):
                    if num not in nv:
                        self.add("ENUM_CONST_REMOVED", f"{p}/{num}")
                    elif num not in ov:
                        self.add("ENUM_CONST_ADDED", f"{p}/{num}")
                    elif ov[num] != nv[num]:
                        self.add("ENUM_CONST_CHANGED", f"{p}/{num}")

    @staticmethod
    def _oneofs(msg: Any) -> dict[int, str]:
        """field number -> name of its (real, not proto3-optional) oneof."""
        out = {}
        for f in msg.field:
            if f.HasField("oneof_index") and not f.proto3_optional:
                out[f.number] = msg.oneof_decl[f.oneof_index].name
        return out

    def message(self, old: Any, new: Any, path: str) -> None:
        key = (path, old.name)
        if key in self.seen:
            return
        self.seen.add(key)
        oof, nof = self._oneofs(old), self._oneofs(new)
        oall = {f.number: f for f in old.field}
        nall = {f.number: f for f in new.field}
        otop = {k: v for k, v in oall.items() if k not in oof}
        ntop = {k: v for k, v in nall.items() if k not in nof}
        ogroups: dict[str, set[int]] = {}
        ngroups: dict[str, set[int]] = {}
        for num, name in oof.items():
            ogroups.setdefault(name, set()).add(num)
        for num, name in nof.items():
            ngroups.setdefault(name, set()).add(num)
        for name, nums in ngroups.items():
            moved = sum(1 for num in nums if num in otop)
            existing = sum(1 for num in nums if num not in otop and num in oof)
            for num in nums:
                otop.pop(num, None)
            if moved > 1:
                self.add("MULTIPLE_FIELDS_MOVED_TO_ONEOF", f"{path}/{name}")
            elif moved == 1 and existing > 0:
                self.add("FIELD_MOVED_TO_EXISTING_ONEOF", f"{path}/{name}")
        for name in sorted(set(ogroups) | set(ngroups)):
            p = f"{path}/{name}"
            if name not in ngroups:
                self.add("ONEOF_REMOVED", p)
            elif name not in ogroups:
                self.add("ONEOF_ADDED", p)
            else:
                for num in sorted(ngroups[name] | ogroups[name]):
                    if num not in ngroups[name]:
                        if num not in nall:  # moved elsewhere in the message is no removal
                            self.add("ONEOF_FIELD_REMOVED", f"{p}/{num}")
                    elif num not in ogroups[name]:
                        self.add("ONEOF_FIELD_ADDED", f"{p}/{num}")
                    else:
                        self.field(oall[num], nall[num], old, new, f"{p}/{num}")
        required = FDP.LABEL_REQUIRED
        for num in sorted(set(otop) | set(ntop)):
            p = f"{path}/{num}"
            if num not in ntop:
                self.add("REQUIRED_FIELD_REMOVED" if otop[num].label == required else "FIELD_REMOVED", p)
            elif num not in otop:
                self.add("REQUIRED_FIELD_ADDED" if ntop[num].label == required else "FIELD_ADDED", p)
            else:
                self.field(otop[num], ntop[num], old, new, p)
        for num in sorted(set(oall) & set(nall)):
            if (num not in oof and num not in nof) or (num in oof and oof.get(num) == nof.get(num)):
                continue
            self.field(oall[num], nall[num], old, new, f"{path}/{num}")
        self.types(list(old.nested_type), list(new.nested_type), old.enum_type, new.enum_type, path)

    def _message_by_name(self, side: int, full_name: str) -> Any:
        try:
            return self.sides[side].pool().FindMessageTypeByName(full_name.lstrip("."))
        except KeyError:
            return None

    def _kind(self, side: int, f: Any, owner: Any) -> str:
        if f.type != FDP.TYPE_MESSAGE and f.type != FDP.TYPE_GROUP:
            return "SCALAR"
        desc = self._message_by_name(side, f.type_name)
        if desc is not None and desc.GetOptions().map_entry and f.label == FDP.LABEL_REPEATED:
            return "MAP"
        return "MESSAGE"

    def field(self, of: Any, nf: Any, omsg: Any, nmsg: Any, path: str) -> None:
        if of.name != nf.name:
            self.add("FIELD_NAME_CHANGED", path)
        self.compare_types(of, nf, path)

    def compare_types(self, of: Any, nf: Any, path: str) -> None:
        ok_, nk = self._kind(0, of, None), self._kind(1, nf, None)
        if ok_ != nk:
            self.add("FIELD_KIND_CHANGED", path)
            return
        if ok_ == "SCALAR":
            if _SCALAR_GROUP.get(of.type) != _SCALAR_GROUP.get(nf.type):
                self.add("FIELD_SCALAR_KIND_CHANGED", path)
            return
        od = self._message_by_name(0, of.type_name)
        nd = self._message_by_name(1, nf.type_name)
        if ok_ == "MAP":
            oentry, nentry = descriptor_pb2.DescriptorProto(), descriptor_pb2.DescriptorProto()
            od.CopyToProto(oentry)
            nd.CopyToProto(nentry)
            for i in range(2):  # key, value
                self.compare_types(oentry.field[i], nentry.field[i], path)
            return
        if od is None or nd is None:
            if of.type_name != nf.type_name:
                self.add("FIELD_NAMED_TYPE_CHANGED", path)
            return
        olocal = _local(od.full_name, od.file.package)
        nlocal = _local(nd.full_name, nd.file.package)
        if olocal != nlocal:
            self.add("FIELD_NAMED_TYPE_CHANGED", path)
            return
        sub = _Diff(*self.sides)
        sub.seen = self.seen
        oproto, nproto = descriptor_pb2.DescriptorProto(), descriptor_pb2.DescriptorProto()
        od.CopyToProto(oproto)
        nd.CopyToProto(nproto)
        sub.message(oproto, nproto, f"{path}/{olocal}")
        self.differences += sub.differences
        if any(k not in COMPATIBLE for k, _ in sub.differences):
            self.add("FIELD_NAMED_TYPE_CHANGED", path)


def _local(full_name: str, package: str) -> str:
    return full_name[len(package) + 1 :] if package and full_name.startswith(package + ".") else full_name


def text_if_equivalent(
    fdp: descriptor_pb2.FileDescriptorProto, deps: dict[str, descriptor_pb2.FileDescriptorProto]
) -> str | None:
    """The descriptor as .proto text when that text compiles back to the same descriptor, else None."""
    try:
        text = to_text(fdp)
        back = compile_text(text, deps)
    except (Unprintable, E.RegistryError):
        return None
    return text if normalized(back, MAIN_FILE) == normalized(fdp, MAIN_FILE) else None
