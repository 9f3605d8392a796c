"""A ``FileDescriptorProto`` rendered as ``.proto`` text: Confluent stores Protobuf schemas as text, and
confluent-kafka's Python serializer registers descriptors. Features the printer does not render
(editions, extensions, groups, custom options) raise :class:`Unprintable`; the caller then keeps the
descriptor, and checks every rendering by compiling it back (``protobuf.text_if_equivalent``)."""

from __future__ import annotations

from typing import Any

from google.protobuf import descriptor_pb2

FDP = descriptor_pb2.FieldDescriptorProto

_TYPE_NAMES = {
    FDP.TYPE_DOUBLE: "double",
    FDP.TYPE_FLOAT: "float",
    FDP.TYPE_INT64: "int64",
    FDP.TYPE_UINT64: "uint64",
    FDP.TYPE_INT32: "int32",
    FDP.TYPE_FIXED64: "fixed64",
    FDP.TYPE_FIXED32: "fixed32",
    FDP.TYPE_BOOL: "bool",
    FDP.TYPE_STRING: "string",
    FDP.TYPE_BYTES: "bytes",
    FDP.TYPE_UINT32: "uint32",
    FDP.TYPE_SFIXED32: "sfixed32",
    FDP.TYPE_SFIXED64: "sfixed64",
    FDP.TYPE_SINT32: "sint32",
    FDP.TYPE_SINT64: "sint64",
}
_FILE_OPTIONS = (
    "java_package",
    "java_outer_classname",
    "java_multiple_files",
    "go_package",
    "csharp_namespace",
    "objc_class_prefix",
    "php_namespace",
    "ruby_package",
    "cc_enable_arenas",
)


class Unprintable(Exception):
    """A descriptor feature the printer does not render (the schema is then stored as given)."""


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _camel(name: str) -> str:
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def _only_fields(options: Any, allowed: set[str]) -> list[tuple[Any, Any]]:
    listed = options.ListFields()
    # custom options arrive as unknown fields: a re-serialization longer than the known ones shows them
    known = type(options)()
    for fd, value in listed:
        if fd.name not in allowed:
            raise Unprintable(f"option {fd.name}")
        setattr(known, fd.name, value)
    if len(known.SerializeToString()) != len(options.SerializeToString()):
        raise Unprintable("custom options")
    return listed


def to_text(fdp: descriptor_pb2.FileDescriptorProto) -> str:
    """``.proto`` text for a file descriptor (what Confluent stores for a schema registered as a
    descriptor); raises ``Unprintable`` for features it does not render (editions, extensions, groups)."""
    syntax = fdp.syntax or "proto2"
    if syntax not in ("proto2", "proto3") or fdp.extension or fdp.weak_dependency:
        raise Unprintable(f"syntax {syntax} / extensions")
    out = [f"syntax = {_quote(syntax)};"]
    if fdp.package:
        out.append(f"package {fdp.package};")
    for i, dep in enumerate(fdp.dependency):
        out.append(f"import {'public ' if i in fdp.public_dependency else ''}{_quote(dep)};")
    for fd, value in _only_fields(fdp.options, set(_FILE_OPTIONS)):
        rendered = ("true" if value else "false") if isinstance(value, bool) else _quote(value)
        out.append(f"option {fd.name} = {rendered};")
    for m in fdp.message_type:
        out += _message(m, syntax, "")
    for e in fdp.enum_type:
        out += _enum(e, "")
    for svc in fdp.service:
        _only_fields(svc.options, set())
        out.append(f"service {svc.name} {{")
        for rpc in svc.method:
            _only_fields(rpc.options, set())
            cs = "stream " if rpc.client_streaming else ""
            ss = "stream " if rpc.server_streaming else ""
            out.append(f"  rpc {rpc.name}({cs}{rpc.input_type}) returns ({ss}{rpc.output_type});")
        out.append("}")
    return "\n".join(out) + "\n"


def _reserved(msg: Any, pad: str, is_enum: bool) -> list[str]:
    out = []
    for r in msg.reserved_range:
        end = r.end if is_enum else r.end - 1  # message ranges are end-exclusive, enum ranges inclusive
        out.append(f"{pad}reserved {r.start};" if end == r.start else f"{pad}reserved {r.start} to {end};")
    if msg.reserved_name:
        out.append(f"{pad}reserved {', '.join(_quote(n) for n in msg.reserved_name)};")
    return out


def _enum(e: Any, pad: str) -> list[str]:
    opts = _only_fields(e.options, {"allow_alias", "deprecated"})
    out = [f"{pad}enum {e.name} {{"]
    out += [f"{pad}  option {fd.name} = {'true' if v else 'false'};" for fd, v in opts]
    for v in e.value:
        vopts = _only_fields(v.options, {"deprecated"})
        suffix = " [deprecated = true]" if vopts else ""
        out.append(f"{pad}  {v.name} = {v.number}{suffix};")
    out += _reserved(e, pad + "  ", True)
    out.append(f"{pad}}}")
    return out


def _message(m: Any, syntax: str, pad: str) -> list[str]:
    if m.extension or m.extension_range and syntax == "proto3":
        raise Unprintable("extensions")
    _only_fields(m.options, {"deprecated"})
    entries = {f".{n.name}": n for n in m.nested_type if n.options.map_entry}
    out = [f"{pad}message {m.name} {{"]
    if m.options.deprecated:
        out.append(f"{pad}  option deprecated = true;")
    inner = pad + "  "
    real_oneofs: dict[int, list[Any]] = {}
    for f in m.field:
        if f.HasField("oneof_index") and not f.proto3_optional:
            real_oneofs.setdefault(f.oneof_index, []).append(f)
    printed_oneofs: set[int] = set()
    for f in m.field:
        if f.HasField("oneof_index") and not f.proto3_optional:
            idx = f.oneof_index
            if idx in printed_oneofs:
                continue
            printed_oneofs.add(idx)
            _only_fields(m.oneof_decl[idx].options, set())
            out.append(f"{inner}oneof {m.oneof_decl[idx].name} {{")
            out += [_field(x, syntax, inner + "  ", entries, in_oneof=True) for x in real_oneofs[idx]]
            out.append(f"{inner}}}")
        else:
            out.append(_field(f, syntax, inner, entries, in_oneof=False))
    for n in m.nested_type:
        if not n.options.map_entry:
            out += _message(n, syntax, inner)
    for e in m.enum_type:
        out += _enum(e, inner)
    for r in m.extension_range:
        _only_fields(r.options, set())
        out.append(f"{inner}extensions {r.start} to {'max' if r.end >= 536870912 else r.end - 1};")
    out += _reserved(m, inner, False)
    out.append(f"{pad}}}")
    return out


def _field(f: Any, syntax: str, pad: str, entries: dict[str, Any], in_oneof: bool) -> str:
    if f.type == FDP.TYPE_GROUP:
        raise Unprintable("groups")
    opts = []
    for fd, v in _only_fields(f.options, {"packed", "deprecated"}):
        opts.append(f"{fd.name} = {'true' if v else 'false'}")
    if f.HasField("default_value"):
        dv = _quote(f.default_value) if f.type in (FDP.TYPE_STRING,) else f.default_value
        if f.type == FDP.TYPE_BYTES:
            raise Unprintable("bytes default")
        opts.append(f"default = {dv}")
    if f.HasField("json_name") and f.json_name != _camel(f.name):
        opts.append(f"json_name = {_quote(f.json_name)}")
    suffix = f" [{', '.join(opts)}]" if opts else ""
    entry = next((e for k, e in entries.items() if f.type_name.endswith(k)), None) if f.type_name else None
    if entry is not None and f.label == FDP.LABEL_REPEATED:
        key, value = entry.field[0], entry.field[1]
        kt = _TYPE_NAMES.get(key.type) or key.type_name
        vt = _TYPE_NAMES.get(value.type) or value.type_name
        return f"{pad}map<{kt}, {vt}> {f.name} = {f.number}{suffix};"
    type_name = _TYPE_NAMES.get(f.type) or f.type_name
    if f.label == FDP.LABEL_REPEATED:
        label = "repeated "
    elif in_oneof:
        label = ""
    elif syntax == "proto2":
        label = "required " if f.label == FDP.LABEL_REQUIRED else "optional "
    else:
        label = "optional " if f.proto3_optional else ""
    return f"{pad}{label}{type_name} {f.name} = {f.number}{suffix};"


def normalized(fdp: descriptor_pb2.FileDescriptorProto, name: str) -> bytes:
    """The descriptor's bytes with what the text form cannot carry set aside (file name, source info)."""
    out = descriptor_pb2.FileDescriptorProto()
    out.CopyFrom(fdp)
    out.name = name
    out.ClearField("source_code_info")

    def clear(msgs: Any) -> None:
        for m in msgs:
            for f in m.field:
                if f.json_name == _camel(f.name):
                    f.ClearField("json_name")
            clear(m.nested_type)

    clear(out.message_type)
    return out.SerializeToString(deterministic=True)
