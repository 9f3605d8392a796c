"""SCRAM-SHA-256/512 credentials, stored as Kafka stores them: salt, StoredKey, ServerKey and
iterations per (user, mechanism), never the password (RFC 5802).

AlterUserScramCredentials sends the client-computed SaltedPassword; DescribeUserScramCredentials
reports only mechanism and iterations. The sans-IO server exchange is scramp's.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from typing import Any

# Kafka's ScramMechanism ids (DescribeUserScramCredentials / AlterUserScramCredentials)
MECHANISMS: dict[str, int] = {"SCRAM-SHA-256": 1, "SCRAM-SHA-512": 2}
MECHANISM_NAMES: dict[int, str] = {v: k for k, v in MECHANISMS.items()}
_HASHES = {"SCRAM-SHA-256": hashlib.sha256, "SCRAM-SHA-512": hashlib.sha512}
MIN_ITERATIONS = 4096
MAX_ITERATIONS = 16384


@dataclass(frozen=True)
class ScramCredential:
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int

    def __repr__(self) -> str:  # keys are password-equivalent for SCRAM servers
        return f"ScramCredential(iterations={self.iterations})"

    def to_json(self) -> dict[str, Any]:
        return {
            "salt": self.salt.hex(),
            "stored_key": self.stored_key.hex(),
            "server_key": self.server_key.hex(),
            "iterations": self.iterations,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ScramCredential:
        return cls(
            bytes.fromhex(d["salt"]), bytes.fromhex(d["stored_key"]), bytes.fromhex(d["server_key"]), d["iterations"]
        )


def credential_from_salted_password(
    mechanism: str, salt: bytes, salted_password: bytes, iterations: int
) -> ScramCredential:
    h = _HASHES[mechanism]
    client_key = hmac.new(salted_password, b"Client Key", h).digest()
    stored_key = h(client_key).digest()
    server_key = hmac.new(salted_password, b"Server Key", h).digest()
    return ScramCredential(salt, stored_key, server_key, iterations)


def credential_from_password(
    mechanism: str, password: str, iterations: int = MIN_ITERATIONS, salt: bytes | None = None
) -> ScramCredential:
    salt = salt if salt is not None else os.urandom(32)
    salted = hashlib.pbkdf2_hmac(_HASHES[mechanism]().name, password.encode(), salt, iterations)
    return credential_from_salted_password(mechanism, salt, salted, iterations)


class ScramCredentialStore:
    """user -> mechanism -> credential; `on_change` persists (the broker's metadata file)."""

    def __init__(self) -> None:
        self.users: dict[str, dict[str, ScramCredential]] = {}

    def get(self, user: str, mechanism: str) -> ScramCredential | None:
        return self.users.get(user, {}).get(mechanism)

    def upsert(self, user: str, mechanism: str, credential: ScramCredential) -> None:
        self.users.setdefault(user, {})[mechanism] = credential

    def delete(self, user: str, mechanism: str) -> bool:
        creds = self.users.get(user)
        if not creds or mechanism not in creds:
            return False
        del creds[mechanism]
        if not creds:
            del self.users[user]
        return True

    def to_json(self) -> dict[str, Any]:
        return {u: {m: c.to_json() for m, c in creds.items()} for u, creds in self.users.items()}

    def load_json(self, d: dict[str, Any]) -> None:
        self.users = {u: {m: ScramCredential.from_json(c) for m, c in creds.items()} for u, creds in d.items()}


class ScramServer:
    """One SCRAM exchange (client-first → server-first, client-final → server-final)."""

    def __init__(self, mechanism: str, store: ScramCredentialStore) -> None:
        import scramp  # on the first SCRAM exchange: a broker without SASL never loads it (start time)

        self.mechanism = mechanism
        self.store = store
        self.username: str | None = None

        def auth_fn(username: str) -> tuple[bytes, bytes, bytes, int]:
            cred = store.get(username, mechanism)
            if cred is None:
                raise scramp.ScramException("Invalid user credentials")
            self.username = username
            return cred.salt, cred.stored_key, cred.server_key, cred.iterations

        self._server = scramp.ScramMechanism(mechanism).make_server(auth_fn)
        self._step = 0

    def evaluate(self, token: bytes) -> tuple[bytes, bool]:
        """(the challenge to send, whether the exchange is complete); raises ValueError on failure."""
        import scramp

        try:
            if self._step == 0:
                self._step = 1
                msg = token.decode()
                # Kafka's delegation-token extension is not supported: such a client fails here
                self._server.set_client_first(msg)
                return self._server.get_server_first().encode(), False
            if self._step == 1:
                self._step = 2
                self._server.set_client_final(token.decode())
                return self._server.get_server_final().encode(), True
        except (scramp.ScramException, UnicodeDecodeError, KeyError) as e:
            raise ValueError(str(e) or "Invalid user credentials") from None
        raise ValueError("SCRAM exchange already complete")


__all__ = [
    "MECHANISMS",
    "MECHANISM_NAMES",
    "MIN_ITERATIONS",
    "MAX_ITERATIONS",
    "ScramCredential",
    "ScramCredentialStore",
    "ScramServer",
    "credential_from_password",
    "credential_from_salted_password",
]
