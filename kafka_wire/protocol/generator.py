"""Generate `kafka_wire/protocol/messages/*.py` from Apache Kafka's JSON message specs.

Usage: ``python -m kafka_wire.protocol.generator [--spec-dir DIR] [--check]``

The specs are read from the copy that ships inside the kafka-python 3.x wheel
(``kafka/protocol/schemas/resources``) unless ``--spec-dir`` points elsewhere. The APIs that copy
lacks (``EXTRA_SPECS``: the KIP-848 consumer group and KIP-932 share group APIs) are read from Kafka's own
``kafka-clients`` jar (``common/message/*.json``), the one ``scripts/setup.sh`` resolves for the
JVM peers, or ``--clients-jar``. The output is committed; ``--check`` (and a test) proves that
regenerating changes nothing.

What is generated, per spec file: one module with a class per struct (``__slots__``, keyword
constructor with the spec's defaults; ``__eq__``/``__repr__`` come from ``primitives.Struct``)
and straight-line encode/decode functions per distinct wire layout. Consecutive fixed-width
fields are packed and unpacked with one ``struct`` call, and record data is passed through as a
view: decoding speed matters because every request the broker serves goes through here.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

MAX_VERSION = 32767
OUT_DIR = Path(__file__).parent / "messages"

FIXED_FORMATS = {
    "bool": "?",
    "int8": "b",
    "int16": "h",
    "uint16": "H",
    "int32": "i",
    "int64": "q",
    "float64": "d",
    "uuid": "16s",
}
FIXED_SIZES = {"?": 1, "b": 1, "h": 2, "H": 2, "i": 4, "q": 8, "d": 8, "16s": 16}
VARIABLE_TYPES = {"string", "bytes", "records"}


@dataclass(frozen=True)
class Versions:
    lo: int
    hi: int

    @classmethod
    def parse(cls, text: str | None) -> Versions:
        if text is None or text == "none":
            return cls(1, 0)  # empty
        text = text.strip()
        if text.endswith("+"):
            return cls(int(text[:-1]), MAX_VERSION)
        if "-" in text:
            lo, hi = text.split("-")
            return cls(int(lo), int(hi))
        return cls(int(text), int(text))

    def __contains__(self, v: int) -> bool:
        return self.lo <= v <= self.hi

    @property
    def empty(self) -> bool:
        return self.lo > self.hi


@dataclass
class FieldSpec:
    name: str
    py_name: str
    type: str
    versions: Versions
    nullable_versions: Versions
    tagged_versions: Versions
    tag: int | None
    default: str | None
    flexible_override: Versions | None
    struct: StructSpec | None = None

    @property
    def is_array(self) -> bool:
        return self.type.startswith("[]")

    @property
    def elem_type(self) -> str:
        return self.type[2:] if self.is_array else self.type


@dataclass
class StructSpec:
    name: str
    fields: list[FieldSpec] = field(default_factory=list)


def snake(name: str) -> str:
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = s.lower()
    if keyword.iskeyword(s):
        s += "_"
    return s


def load_spec(path: Path) -> dict:
    return parse_spec(path.read_text())


def parse_spec(text: str) -> dict:
    return json.loads(re.sub(r"^\s*//.*$", "", text, flags=re.M))


# Specs the kafka-python copy does not ship, taken from Kafka's kafka-clients jar instead.
EXTRA_SPECS: tuple[str, ...] = (
    "ConsumerGroupHeartbeatRequest",
    "ConsumerGroupHeartbeatResponse",
    "ConsumerGroupDescribeRequest",
    "ConsumerGroupDescribeResponse",
    "ShareGroupHeartbeatRequest",
    "ShareGroupHeartbeatResponse",
    "ShareGroupDescribeRequest",
    "ShareGroupDescribeResponse",
    "ShareFetchRequest",
    "ShareFetchResponse",
    "ShareAcknowledgeRequest",
    "ShareAcknowledgeResponse",
    "InitializeShareGroupStateRequest",
    "InitializeShareGroupStateResponse",
    "ReadShareGroupStateRequest",
    "ReadShareGroupStateResponse",
    "WriteShareGroupStateRequest",
    "WriteShareGroupStateResponse",
    "DeleteShareGroupStateRequest",
    "DeleteShareGroupStateResponse",
    "ReadShareGroupStateSummaryRequest",
    "ReadShareGroupStateSummaryResponse",
    "DescribeShareGroupOffsetsRequest",
    "DescribeShareGroupOffsetsResponse",
    "AlterShareGroupOffsetsRequest",
    "AlterShareGroupOffsetsResponse",
    "DeleteShareGroupOffsetsRequest",
    "DeleteShareGroupOffsetsResponse",
    "StreamsGroupHeartbeatRequest",
    "StreamsGroupHeartbeatResponse",
    "StreamsGroupDescribeRequest",
    "StreamsGroupDescribeResponse",
)


def default_clients_jar() -> Path | None:
    """Kafka's kafka-clients jar: the JVM peers' copy (peers/target/kafka-lib), else Maven's cache."""
    root = Path(__file__).resolve().parents[2]
    candidates = sorted((root / "peers" / "target" / "kafka-lib").glob("kafka-clients-*.jar"))
    candidates += sorted(Path.home().glob(".m2/repository/org/apache/kafka/kafka-clients/*/kafka-clients-*.jar"))
    jars = [p for p in candidates if not p.name.endswith(("-sources.jar", "-test.jar"))]
    return jars[0] if jars else None


def extra_specs(jar: Path | None, have: set[str]) -> list[dict]:
    """EXTRA_SPECS not in `have` (spec names already read), from the jar's common/message/."""
    if jar is None:
        return []
    with zipfile.ZipFile(jar) as z:
        return [parse_spec(z.read(f"common/message/{name}.json").decode()) for name in EXTRA_SPECS if name not in have]


class SpecModel:
    """The structs of one JSON spec file, with common structs resolved."""

    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.name: str = spec["name"]
        self.kind: str = spec["type"]
        self.api_key: int | None = spec.get("apiKey")
        self.valid = Versions.parse(spec["validVersions"])
        self.flexible = Versions.parse(spec.get("flexibleVersions", "none"))
        self.structs: dict[str, StructSpec] = {}
        self.common = {c["name"]: c for c in spec.get("commonStructs", [])}
        self.root = self._struct(self.name, spec["fields"])

    def _struct(self, name: str, fields_json: list[dict]) -> StructSpec:
        if name in self.structs:
            return self.structs[name]
        st = StructSpec(name)
        self.structs[name] = st
        for f in fields_json:
            ftype: str = f["type"]
            elem = ftype[2:] if ftype.startswith("[]") else ftype
            fs = FieldSpec(
                name=f["name"],
                py_name=snake(f["name"]),
                type=ftype,
                versions=Versions.parse(f.get("versions")),
                nullable_versions=Versions.parse(f.get("nullableVersions")),
                tagged_versions=Versions.parse(f.get("taggedVersions")),
                tag=f.get("tag"),
                default=f.get("default"),
                flexible_override=Versions.parse(f["flexibleVersions"]) if "flexibleVersions" in f else None,
            )
            if elem not in FIXED_FORMATS and elem not in VARIABLE_TYPES:
                if "fields" in f:
                    fs.struct = self._struct(elem, f["fields"])
                elif elem in self.common:
                    fs.struct = self._struct(elem, self.common[elem]["fields"])
                else:
                    raise ValueError(f"{self.name}: unknown type {ftype} of field {f['name']}")
            st.fields.append(fs)
        return st


def default_expr(f: FieldSpec) -> str:
    """A Python expression for the field's default value (a fresh object for mutable ones)."""
    d = None if f.default is None else str(f.default).lower() if isinstance(f.default, bool) else str(f.default)
    if f.is_array:
        return "None" if d == "null" else "[]"
    if f.struct is not None:
        return "None" if d == "null" else f"{f.struct.name}()"
    t = f.type
    if t == "bool":
        return "True" if d == "true" else "False"
    if t in ("int8", "int16", "uint16", "int32", "int64"):
        return str(int(d, 0)) if d not in (None, "") else "0"
    if t == "float64":
        return repr(float(d)) if d else "0.0"
    if t == "uuid":
        return "ZERO_UUID"
    if t == "string":
        if d == "null":
            return "None"
        return repr(d or "")
    if t in ("bytes", "records"):
        return "None" if (d == "null" or t == "records") else "b''"
    raise ValueError(t)


def unset_marker(f: FieldSpec) -> str:
    """What a constructor argument with a mutable default (a fresh list or struct) defaults to.

    None stands for "use the default" where the field can never be null; where it can, None is
    a value of its own (a null array or struct), so the marker is the `UNSET` sentinel instead.
    """
    return "None" if f.nullable_versions.empty else "UNSET"


def is_immutable_default(f: FieldSpec) -> bool:
    return not (f.is_array or f.struct is not None) or f.default == "null"


class ModuleWriter:
    def __init__(self, model: SpecModel) -> None:
        self.m = model
        self.lines: list[str] = []
        self.struct_formats: dict[str, str] = {}  # format -> variable name
        self.dec_funcs: dict[tuple[str, str], str] = {}  # (struct, body) -> name
        self.enc_funcs: dict[tuple[str, str], str] = {}
        self.func_text: list[str] = []
        self.dec_memo: dict[tuple[str, int, bool], str] = {}
        self.enc_memo: dict[tuple[str, int, bool], str] = {}

    # --- helpers -----------------------------------------------------------------------
    def fmt_var(self, fmt: str) -> str:
        if fmt not in self.struct_formats:
            self.struct_formats[fmt] = f"_S{len(self.struct_formats)}"
        return self.struct_formats[fmt]

    def flexible_field(self, f: FieldSpec, v: int, flexible: bool) -> bool:
        if f.flexible_override is not None:
            return v in f.flexible_override
        return flexible

    def struct_flexible(self, v: int) -> bool:
        return v in self.m.flexible

    # --- decoding ---------------------------------------------------------------------
    def read_value(self, f: FieldSpec, elem: str, v: int, flexible: bool, target: str, ind: str) -> list[str]:
        """Lines that read one non-array value of type `elem` into `target`, advancing pos."""
        fx = self.flexible_field(f, v, flexible)
        if elem in FIXED_FORMATS:
            fmt = FIXED_FORMATS[elem]
            var = self.fmt_var(">" + fmt)
            return [f"{ind}({target},) = {var}.unpack_from(buf, pos)", f"{ind}pos += {FIXED_SIZES[fmt]}"]
        if elem in ("string", "bytes", "records"):
            fn = f"read_compact_{elem}" if fx else f"read_{elem}"
            lines = [f"{ind}{target}, pos = {fn}(buf, pos)"]
            if f.is_array or v not in f.nullable_versions:
                # strict decoding: a -1 length where the spec forbids null is a malformed request
                lines += [f"{ind}if {target} is None:", f"{ind}    null_field({f.name!r})"]
            return lines
        else:
            assert f.struct is not None
            fn = self.decoder(f.struct, v, flexible)
            if not f.is_array and v in f.nullable_versions:
                # KIP-893 nullable struct: an int8 marker, -1 for null and 1 for present
                var = self.fmt_var(">b")
                return [
                    f"{ind}if {var}.unpack_from(buf, pos)[0] < 0:",
                    f"{ind}    {target} = None",
                    f"{ind}    pos += 1",
                    f"{ind}else:",
                    f"{ind}    {target}, pos = {fn}(buf, pos + 1)",
                ]
        return [f"{ind}{target}, pos = {fn}(buf, pos)"]

    def min_value_size(self, f: FieldSpec, elem: str, v: int, flexible: bool) -> int:
        """The fewest wire bytes one value of type `elem` (of field `f`) takes in version `v`."""
        fx = self.flexible_field(f, v, flexible)
        if elem in FIXED_FORMATS:
            return FIXED_SIZES[FIXED_FORMATS[elem]]
        if elem in VARIABLE_TYPES:
            return 1 if fx else (2 if elem == "string" else 4)
        assert f.struct is not None
        if not f.is_array and v in f.nullable_versions:
            return 1  # KIP-893 marker byte
        return self.min_struct_size(f.struct, v, flexible)

    def min_struct_size(self, st: StructSpec, v: int, flexible: bool) -> int:
        size = 1 if flexible else 0  # the tagged-field count
        for f in st.fields:
            if v not in f.versions or (flexible and v in f.tagged_versions and f.tag is not None):
                continue
            if f.is_array:
                size += 1 if self.flexible_field(f, v, flexible) else 4
            else:
                size += self.min_value_size(f, f.elem_type, v, flexible)
        return size

    def min_elem_size(self, f: FieldSpec, v: int, flexible: bool) -> int:
        """Lower bound on the wire size of one element of array field `f` (0 for an element with
        no wire bytes at all, which the length check then bounds by the bytes left, as 1)."""
        return self.min_value_size(f, f.elem_type, v, flexible)

    def read_field(self, f: FieldSpec, v: int, flexible: bool, ind: str) -> list[str]:
        target = f"o.{f.py_name}"
        if not f.is_array:
            return self.read_value(f, f.elem_type, v, flexible, target, ind)
        fx = self.flexible_field(f, v, flexible)
        fn = "read_compact_array_len" if fx else "read_array_len"
        min_elem = self.min_elem_size(f, v, flexible)
        # the count is checked against the bytes left before any element is allocated
        lines = [f"{ind}n, pos = {fn}(buf, pos)" if min_elem == 1 else f"{ind}n, pos = {fn}(buf, pos, {min_elem})"]
        lines.append(f"{ind}if n < 0:")
        if v in f.nullable_versions:
            lines.append(f"{ind}    {target} = None")
        else:
            lines.append(f"{ind}    null_field({f.name!r})")
        lines.append(f"{ind}else:")
        elem = f.elem_type
        if elem in FIXED_FORMATS and elem != "uuid":
            fmt = FIXED_FORMATS[elem]
            lines.append(f"{ind}    {target} = list(struct.unpack_from('>%d{fmt}' % n, buf, pos))")
            lines.append(f"{ind}    pos += n * {FIXED_SIZES[fmt]}")
            return lines
        lines.append(f"{ind}    items = []")
        lines.append(f"{ind}    append = items.append")
        lines.append(f"{ind}    for _ in range(n):")
        lines.extend(self.read_value(f, elem, v, flexible, "x", ind + "        "))
        lines.append(f"{ind}        append(x)")
        lines.append(f"{ind}    {target} = items")
        return lines

    def decoder(self, st: StructSpec, v: int, flexible: bool) -> str:
        key = (st.name, v, flexible)
        if key in self.dec_memo:
            return self.dec_memo[key]
        body: list[str] = [f"    o = {st.name}.__new__({st.name})"]
        fixed: list[FieldSpec] = []

        def flush() -> None:
            if not fixed:
                return
            fmt = ">" + "".join(FIXED_FORMATS[x.type] for x in fixed)
            var = self.fmt_var(fmt)
            targets = ", ".join(f"o.{x.py_name}" for x in fixed)
            size = sum(FIXED_SIZES[FIXED_FORMATS[x.type]] for x in fixed)
            body.append(f"    ({targets},) = {var}.unpack_from(buf, pos)")
            body.append(f"    pos += {size}")
            fixed.clear()

        tagged: list[FieldSpec] = []
        defaults: list[str] = []
        for f in st.fields:
            present = v in f.versions
            is_tagged = flexible and v in f.tagged_versions and f.tag is not None
            if not present or is_tagged:
                if is_tagged and present:
                    tagged.append(f)
                # absent (or tagged, until its tag is seen): the spec's default. Absent
                # fields take no wire bytes, so they do not split a run of fixed fields.
                defaults.append(f"    o.{f.py_name} = {default_expr(f)}")
                continue
            if not f.is_array and f.type in FIXED_FORMATS:
                fixed.append(f)
                continue
            flush()
            body.extend(self.read_field(f, v, flexible, "    "))
        flush()
        body[1:1] = defaults
        if flexible and not tagged:
            # the common case: an empty tagged-field section is a single zero byte
            body.append("    if buf[pos] == 0:")
            body.append("        pos += 1")
            body.append("    else:")
            body.append("        pos = skip_tagged_fields(buf, pos)")
        elif flexible:
            body.append("    count, pos = read_uvarint(buf, pos)")
            body.append("    for _ in range(count):")
            body.append("        tag, pos = read_uvarint(buf, pos)")
            body.append("        size, pos = read_uvarint(buf, pos)")
            body.append("        end = pos + size")
            first = True
            for f in sorted(tagged, key=lambda x: x.tag or 0):
                kw = "if" if first else "elif"
                first = False
                body.append(f"        {kw} tag == {f.tag}:")
                body.extend(self.read_field(f, v, flexible, "            "))
            body.append("        pos = end")
        body.append("    return o, pos")
        text = "\n".join(body)
        name = self.dec_funcs.get((st.name, text))
        if name is None:
            idx = sum(1 for k in self.dec_funcs if k[0] == st.name)
            name = f"_decode_{st.name}_{idx}"
            self.dec_funcs[(st.name, text)] = name
            self.func_text.append(f"def {name}(buf: Buffer, pos: int) -> tuple[{st.name}, int]:\n{text}\n")
        self.dec_memo[key] = name
        return name

    # --- encoding ---------------------------------------------------------------------
    def write_value(self, f: FieldSpec, elem: str, v: int, flexible: bool, src: str, ind: str) -> list[str]:
        fx = self.flexible_field(f, v, flexible)
        if elem in FIXED_FORMATS:
            var = self.fmt_var(">" + FIXED_FORMATS[elem])
            return [f"{ind}out.append({var}.pack({src}))"]
        if elem == "string":
            return [f"{ind}out.append({'enc_compact_string' if fx else 'enc_string'}({src}))"]
        if elem == "bytes":
            return [f"{ind}out.append({'enc_compact_bytes' if fx else 'enc_bytes'}({src}))"]
        if elem == "records":
            return [f"{ind}{'enc_compact_records' if fx else 'enc_records'}(out, {src})"]
        assert f.struct is not None
        fn = self.encoder(f.struct, v, flexible)
        if not f.is_array and v in f.nullable_versions:
            # KIP-893 nullable struct: an int8 marker, -1 for null and 1 for present
            return [
                f"{ind}if {src} is None:",
                f"{ind}    out.append(b'\\xff')",
                f"{ind}else:",
                f"{ind}    out.append(b'\\x01')",
                f"{ind}    {fn}({src}, out)",
            ]
        return [f"{ind}{fn}({src}, out)"]

    def write_field(self, f: FieldSpec, v: int, flexible: bool, src: str, ind: str) -> list[str]:
        if not f.is_array:
            return self.write_value(f, f.elem_type, v, flexible, src, ind)
        fx = self.flexible_field(f, v, flexible)
        lines = [f"{ind}items = {src}"]
        lines.append(f"{ind}out.append({'enc_compact_array_len' if fx else 'enc_array_len'}(items))")
        elem = f.elem_type
        if elem in FIXED_FORMATS and elem != "uuid":
            fmt = FIXED_FORMATS[elem]
            lines.append(f"{ind}if items:")
            lines.append(f"{ind}    out.append(struct.pack('>%d{fmt}' % len(items), *items))")
            return lines
        lines.append(f"{ind}if items:")
        lines.append(f"{ind}    for x in items:")
        lines.extend(self.write_value(f, elem, v, flexible, "x", ind + "        "))
        return lines

    def encoder(self, st: StructSpec, v: int, flexible: bool) -> str:
        key = (st.name, v, flexible)
        if key in self.enc_memo:
            return self.enc_memo[key]
        body: list[str] = []
        fixed: list[FieldSpec] = []

        def flush() -> None:
            if not fixed:
                return
            fmt = ">" + "".join(FIXED_FORMATS[x.type] for x in fixed)
            var = self.fmt_var(fmt)
            args = ", ".join(f"o.{x.py_name}" for x in fixed)
            body.append(f"    out.append({var}.pack({args}))")
            fixed.clear()

        tagged: list[FieldSpec] = []
        for f in st.fields:
            if v not in f.versions:
                continue
            if flexible and v in f.tagged_versions and f.tag is not None:
                tagged.append(f)
                continue
            if not f.is_array and f.type in FIXED_FORMATS:
                fixed.append(f)
                continue
            flush()
            body.extend(self.write_field(f, v, flexible, f"o.{f.py_name}", "    "))
        flush()
        if flexible:
            if not tagged:
                body.append("    out.append(b'\\x00')")
            else:
                body.append("    tagged = []")
                for f in sorted(tagged, key=lambda x: x.tag or 0):
                    dflt = default_expr(f)
                    cond = f"o.{f.py_name} != {dflt}" if dflt not in ("[]",) else f"o.{f.py_name}"
                    body.append(f"    if {cond}:")
                    body.append("        outer, out = out, []")
                    body.extend(self.write_field(f, v, flexible, f"o.{f.py_name}", "        "))
                    body.append(f"        tagged.append(({f.tag}, out))")
                    body.append("        out = outer")
                body.append("    out.extend(enc_tagged_fields(tagged))")
        if not body:
            body.append("    pass")
        text = "\n".join(body)
        name = self.enc_funcs.get((st.name, text))
        if name is None:
            idx = sum(1 for k in self.enc_funcs if k[0] == st.name)
            name = f"_encode_{st.name}_{idx}"
            self.enc_funcs[(st.name, text)] = name
            self.func_text.append(f"def {name}(o: {st.name}, out: list[Any]) -> None:\n{text}\n")
        self.enc_memo[key] = name
        return name

    # --- classes ----------------------------------------------------------------------
    def class_text(self, st: StructSpec, root: bool) -> str:
        names = [f.py_name for f in st.fields]
        lines = [f"class {st.name}(Struct):"]
        if root:
            lines.append(f'    """{self.m.name} (generated from Kafka\'s JSON message spec)."""')
            lines.append("")
            if self.m.api_key is not None:
                lines.append(f"    API_KEY = {self.m.api_key}")
            lines.append(f"    VALID_VERSIONS = ({self.m.valid.lo}, {self.m.valid.hi})")
            lines.append("")
        slots = ", ".join(repr(n) for n in names)
        lines.append(f"    __slots__ = ({slots}{',' if len(names) == 1 else ''})")
        lines.append("")
        if names:
            params = []
            for f in st.fields:
                if is_immutable_default(f):
                    params.append(f"{f.py_name}: Any = {default_expr(f)}")
                else:
                    params.append(f"{f.py_name}: Any = {unset_marker(f)}")
            lines.append("    def __init__(self, " + ", ".join(params) + ") -> None:")
            for f in st.fields:
                if is_immutable_default(f):
                    lines.append(f"        self.{f.py_name} = {f.py_name}")
                else:
                    d = default_expr(f)
                    m = unset_marker(f)
                    lines.append(f"        self.{f.py_name} = {d} if {f.py_name} is {m} else {f.py_name}")
        else:
            lines.append("    def __init__(self) -> None:")
            lines.append("        pass")
        return "\n".join(lines) + "\n"

    def render(self) -> str:
        m = self.m
        versions = range(m.valid.lo, m.valid.hi + 1)
        decoders = {v: self.decoder(m.root, v, v in m.flexible) for v in versions}
        encoders = {v: self.encoder(m.root, v, v in m.flexible) for v in versions}
        out = [
            f'"""Generated from Kafka\'s {m.name}.json by kafka_wire.protocol.generator: do not edit."""',
            "",
            "# ruff: noqa",
            "from __future__ import annotations",
            "",
            "import struct",
            "from typing import Any",
            "",
            "from kafka_wire.protocol.primitives import (",
            "    UNSET, Buffer, Struct, ZERO_UUID,",
            "    enc_array_len, enc_bytes, enc_compact_array_len, enc_compact_bytes,",
            "    enc_compact_records, enc_compact_string, enc_records, enc_string, enc_tagged_fields,",
            "    read_array_len, read_bytes, read_compact_array_len, read_compact_bytes,",
            "    read_compact_records, read_compact_string, read_records, read_string, read_uvarint,",
            "    null_field, skip_tagged_fields,",
            ")",
            "",
            f"NAME = {m.name!r}",
            f"API_KEY = {m.api_key!r}",
            f"VALID_VERSIONS = ({m.valid.lo}, {m.valid.hi})",
            f"FLEXIBLE_VERSIONS = {_flexible_text(m)}",
            "",
        ]
        for fmt, var in self.struct_formats.items():
            out.append(f"{var} = struct.Struct({fmt!r})")
        out.append("")
        # nested structs first so defaults like `Foo()` resolve at call time either way
        for st in self.m.structs.values():
            out.append("")
            out.append(self.class_text(st, st is m.root))
        out.append("")
        for text in self.func_text:
            out.append("")
            out.append(text)
        out.append("")
        out.append("DECODERS = {" + ", ".join(f"{v}: {n}" for v, n in decoders.items()) + "}")
        out.append("ENCODERS = {" + ", ".join(f"{v}: {n}" for v, n in encoders.items()) + "}")
        out.append(f"MESSAGE = {m.name}")
        return "\n".join(out) + "\n"


def module_name(spec_name: str) -> str:
    return snake(spec_name)


def default_spec_dir() -> Path:
    import importlib.resources

    return Path(str(importlib.resources.files("kafka.protocol.schemas.resources")))


def _flexible_text(m: SpecModel) -> str:
    return "None" if m.flexible.empty else f"({m.flexible.lo}, {min(m.flexible.hi, MAX_VERSION)})"


def generate(spec_dir: Path, clients_jar: Path | None = None) -> dict[str, str]:
    """All generated files, by file name, as text (EXTRA_SPECS too when `clients_jar` is given)."""
    files: dict[str, str] = {}
    requests: dict[int, SpecModel] = {}
    responses: dict[int, SpecModel] = {}
    modules: list[str] = []
    specs = [load_spec(path) for path in sorted(spec_dir.glob("*.json"))]
    specs += extra_specs(clients_jar, {spec["name"] for spec in specs})
    for spec in sorted(specs, key=lambda spec: spec["name"]):
        model = SpecModel(spec)
        mod = module_name(model.name)
        files[f"{mod}.py"] = ModuleWriter(model).render()
        modules.append(mod)
        if model.kind == "request" and model.api_key is not None:
            requests[model.api_key] = model
        elif model.kind == "response" and model.api_key is not None:
            responses[model.api_key] = model
    files["__init__.py"] = render_init(sorted(modules), requests, responses)
    return files


def render_init(modules: list[str], requests: dict[int, SpecModel], responses: dict[int, SpecModel]) -> str:
    """The package's tables: module names, version ranges and flexible versions per API key.

    The codec modules themselves load on first use (``LazyModules``; PEP 562 ``__getattr__`` with
    ``deferred_submodule`` for ``messages.fetch_request`` and ``from ... import``): importing all of
    them costs more than the rest of a broker's start. The version tables let ``ApiVersions`` and
    header decoding work without importing any.
    """
    init = [
        '"""Generated message codecs, one module per Kafka JSON spec: do not edit.',
        "",
        "``REQUESTS``/``RESPONSES`` map an API key to its codec module, imported on first lookup;",
        "``REQUEST_VERSIONS``/``RESPONSE_VERSIONS`` and the ``*_FLEXIBLE_VERSIONS`` tables repeat each",
        "module's ``VALID_VERSIONS``/``FLEXIBLE_VERSIONS`` so that answering ApiVersions or decoding a",
        "header imports nothing.",
        '"""',
        "",
        "# ruff: noqa",
        "from __future__ import annotations",
        "",
        "import sys",
        "from types import ModuleType",
        "from typing import TYPE_CHECKING",
        "",
        "from kafka_wire.protocol.lazy import LazyModules, deferred_submodule",
        "",
        "if TYPE_CHECKING:",
        "    from . import (",
    ]
    for mod in modules:
        init.append(f"        {mod},")
    init.append("    )")
    init.append("")
    init.append("MODULES: tuple[str, ...] = (")
    for mod in modules:
        init.append(f"    {mod!r},")
    init.append(")")
    for label, table in (("REQUEST", requests), ("RESPONSE", responses)):
        init.append("")
        init.append(f"{label}_MODULES: dict[int, str] = {{")
        for k in sorted(table):
            init.append(f"    {k}: {module_name(table[k].name)!r},")
        init.append("}")
        init.append(f"{label}_VERSIONS: dict[int, tuple[int, int]] = {{")
        for k in sorted(table):
            init.append(f"    {k}: ({table[k].valid.lo}, {table[k].valid.hi}),")
        init.append("}")
        init.append(f"{label}_FLEXIBLE_VERSIONS: dict[int, tuple[int, int] | None] = {{")
        for k in sorted(table):
            init.append(f"    {k}: {_flexible_text(table[k])},")
        init.append("}")
    init += [
        "",
        "REQUESTS: LazyModules[int] = LazyModules(__name__, REQUEST_MODULES)",
        "RESPONSES: LazyModules[int] = LazyModules(__name__, RESPONSE_MODULES)",
        "_MODULE_SET = frozenset(MODULES)",
        "",
        "",
        "def __getattr__(name: str) -> ModuleType:",
        "    # PEP 562: `messages.fetch_request` and `from ... import fetch_request` bind the module at once",
        "    # and run its code on its first attribute read (kafka_wire.protocol.lazy.deferred_submodule).",
        "    if name in _MODULE_SET:",
        "        return deferred_submodule(sys.modules[__name__], name)",
        '    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")',
        "",
        "",
        "def __dir__() -> list[str]:",
        "    return sorted({*globals(), *MODULES})",
    ]
    return "\n".join(init) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec-dir", type=Path, default=None, help="directory of Kafka JSON message specs")
    parser.add_argument("--clients-jar", type=Path, default=None, help="Kafka's kafka-clients jar (EXTRA_SPECS)")
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    parser.add_argument("--check", action="store_true", help="fail if the committed output differs")
    args = parser.parse_args(argv)
    jar = args.clients_jar or default_clients_jar()
    files = generate(args.spec_dir or default_spec_dir(), jar)
    out_dir: Path = args.out_dir
    if args.check:
        stale = [n for n, t in files.items() if not (out_dir / n).exists() or (out_dir / n).read_text() != t]
        # without the jar the EXTRA_SPECS modules (and the __init__ tables naming them) cannot be checked
        unchecked = set() if jar is not None else {f"{snake(n)}.py" for n in EXTRA_SPECS} | {"__init__.py"}
        stale = [n for n in stale if n not in unchecked]
        extra = [p.name for p in out_dir.glob("*.py") if p.name not in files and p.name not in unchecked]
        if jar is None:
            print("kafka-clients jar not found: the KIP-848 codecs were not checked", file=sys.stderr)
        if stale or extra:
            print(f"generated codecs are stale: {sorted(stale + extra)}", file=sys.stderr)
            return 1
        print(f"{len(files)} generated modules up to date")
        return 0
    out_dir.mkdir(parents=True, exist_ok=True)
    for p in out_dir.glob("*.py"):
        if p.name not in files:
            p.unlink()
    for name, text in files.items():
        (out_dir / name).write_text(text)
    print(f"wrote {len(files)} modules to {out_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
