"""`sasl.jaas.config` in Java's JAAS syntax, parsed once into a login module and its options.

Kafka clients take exactly one login module per `sasl.jaas.config`:
``<LoginModuleClass> <flag> name="value" name2=value2;`` (flag: required, requisite, sufficient or
optional; values quoted, with backslash escapes, or bare tokens). Three modules carry everything
this client needs: PLAIN's and SCRAM's `username`/`password`, and OAUTHBEARER's options (the
unsecured `unsecuredLoginStringClaim_sub=...` token for tests, or `clientId`/`clientSecret`/`scope`
for a token endpoint). The parsed options keep secrets out of `repr` and of every error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kafka_wire.errors import PykafkaError

PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"
SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule"
OAUTHBEARER_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
# the pre-KIP-768 package name of the same module, still accepted by Java clients
OAUTHBEARER_MODULE_OLD = "org.apache.kafka.common.security.oauthbearer.internals.OAuthBearerLoginModule"
MODULES = {
    PLAIN_MODULE: "PLAIN",
    SCRAM_MODULE: "SCRAM",
    OAUTHBEARER_MODULE: "OAUTHBEARER",
    OAUTHBEARER_MODULE_OLD: "OAUTHBEARER",
}
FLAGS = ("required", "requisite", "sufficient", "optional")

# option names whose values are never shown
SECRET_OPTIONS = frozenset({"password", "clientsecret", "unsecuredloginstringclaim_sub_secret", "token"})

_TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([^\s=;"]+)|(=)|(;))', re.S)


class JaasConfigError(PykafkaError, ValueError):
    """`sasl.jaas.config` is malformed or names a module this client cannot use (no secret in the text)."""


@dataclass(frozen=True)
class JaasConfig:
    login_module: str
    flag: str
    options: tuple[tuple[str, str], ...]

    @property
    def kind(self) -> str:
        """PLAIN, SCRAM or OAUTHBEARER."""
        return MODULES[self.login_module]

    def get(self, name: str, default: str | None = None) -> str | None:
        for k, v in self.options:
            if k == name:
                return v
        return default

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={'[hidden]' if is_secret(k) else repr(v)}" for k, v in self.options)
        return f"JaasConfig({self.login_module} {self.flag}: {shown})"

    __str__ = __repr__


def is_secret(option: str) -> bool:
    o = option.lower()
    return o in SECRET_OPTIONS or "secret" in o or "password" in o or "token" in o


def parse_jaas(text: str, option: str = "sasl.jaas.config") -> JaasConfig:
    """Parse one JAAS login module entry; errors name `option` and never echo values."""
    tokens: list[tuple[str, str]] = []  # (kind, text): word, str, =, ;
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise JaasConfigError(f"option '{option}': cannot parse the JAAS configuration at character {pos}")
        pos = m.end()
        if m.group(1) is not None:
            tokens.append(("str", re.sub(r"\\(.)", r"\1", m.group(1))))
        elif m.group(2) is not None:
            tokens.append(("word", m.group(2)))
        elif m.group(3):
            tokens.append(("=", "="))
        else:
            tokens.append((";", ";"))
    expected = (
        "expected '<LoginModule> required name=\"value\" ...;' with one of "
        f"{', '.join(sorted({PLAIN_MODULE, SCRAM_MODULE, OAUTHBEARER_MODULE}))}"
    )
    if len(tokens) < 3 or tokens[0][0] != "word" or tokens[1][0] != "word" or tokens[-1][0] != ";":
        raise JaasConfigError(f"option '{option}': {expected}")
    module, flag = tokens[0][1], tokens[1][1].lower()
    if flag not in FLAGS:
        raise JaasConfigError(f"option '{option}': login module control flag must be one of {', '.join(FLAGS)}")
    body = tokens[2:-1]
    if any(t[0] == ";" for t in body):
        raise JaasConfigError(f"option '{option}': Kafka clients take exactly one login module in sasl.jaas.config")
    if len(body) % 3:
        raise JaasConfigError(f"option '{option}': login module options must be name=value pairs")
    options: list[tuple[str, str]] = []
    for i in range(0, len(body), 3):
        (k_kind, name), (eq, _), (v_kind, value) = body[i : i + 3]
        if k_kind != "word" or eq != "=" or v_kind not in ("word", "str"):
            raise JaasConfigError(f"option '{option}': login module options must be name=value pairs")
        options.append((name, value))
    if module not in MODULES:
        raise JaasConfigError(
            f"option '{option}': login module {module!r} is not supported by pykafka's clients; accepted: "
            f"{', '.join(sorted({PLAIN_MODULE, SCRAM_MODULE, OAUTHBEARER_MODULE}))}"
        )
    return JaasConfig(module, flag, tuple(options))


__all__ = [
    "MODULES",
    "OAUTHBEARER_MODULE",
    "PLAIN_MODULE",
    "SCRAM_MODULE",
    "JaasConfig",
    "JaasConfigError",
    "parse_jaas",
]
