"""TLS for the broker's SSL and SASL_SSL listeners, run by the broker itself over a plain socket.

asyncio's (and uvloop's) TLS transport drops the alert a failed handshake produces: it closes the
socket without sending what OpenSSL wrote for the peer. A client whose certificate is missing or
untrusted (`ssl.client.auth=required`) then sees a bare disconnect, which Kafka clients retry until
their timeout, where Kafka's broker answers with an alert that fails them at once. So the broker
drives an `ssl.SSLObject` over memory BIOs, as asyncio does, and flushes what the handshake wrote,
alert included, before it closes.

`TlsConnection` is the protocol of the raw socket; once the handshake is done it hands the
`KafkaConnection` a `TlsTransport`, so the connection code is the same with and without TLS.
Decrypted bytes go straight into the buffers the connection hands out (`get_buffer`).
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from broker_embedded.network.server import KafkaConnection

log = logging.getLogger(__name__)

# A client that connects and never completes its handshake is dropped after this long (asyncio's
# default ssl_handshake_timeout; Kafka's broker closes it with connections.max.idle.ms).
HANDSHAKE_TIMEOUT_S = 60.0


class TlsTransport:
    """What a `KafkaConnection` on a TLS listener writes to: plaintext in, TLS records out (the
    transport methods the connection calls, nothing more)."""

    def __init__(self, tls: TlsConnection) -> None:
        self._tls = tls

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "ssl_object":  # the mTLS principal is read from it
            return self._tls.sslobj
        return self._tls.raw.get_extra_info(name, default)

    def writelines(self, chunks: Iterable[bytes | bytearray | memoryview]) -> None:
        tls = self._tls
        if tls.raw.is_closing():
            return
        for chunk in chunks:
            tls.sslobj.write(chunk)
        tls.flush()

    def get_write_buffer_size(self) -> int:
        return self._tls.raw.get_write_buffer_size()

    def pause_reading(self) -> None:
        self._tls.pause_reading()

    def resume_reading(self) -> None:
        self._tls.resume_reading()

    def is_closing(self) -> bool:
        return self._tls.raw.is_closing()

    def close(self) -> None:
        self._tls.close()

    def abort(self) -> None:
        self._tls.raw.abort()


class TlsConnection(asyncio.BufferedProtocol):
    """The raw socket of one TLS client: the handshake, then records decrypted into the
    connection's buffers and its responses encrypted."""

    def __init__(
        self,
        context: ssl.SSLContext,
        new_connection: Callable[[], KafkaConnection],
        on_handshake_end: Callable[[TlsConnection], None],
        read_buffer: memoryview,
        admit: Callable[[asyncio.BaseTransport], bool] | None = None,
    ) -> None:
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self.sslobj = context.wrap_bio(self._incoming, self._outgoing, server_side=True)
        self._new_connection = new_connection
        self._on_handshake_end = on_handshake_end
        self._read_view = read_buffer  # ciphertext is copied into the incoming BIO at once: shareable
        self._admit = admit  # the IP connection rate quota, checked at accept (before the handshake)
        self._timer: asyncio.TimerHandle | None = None
        # set in connection_made, before any other use
        self.raw: asyncio.Transport = None  # type: ignore[assignment]
        self.inner: KafkaConnection | None = None
        self._transport = TlsTransport(self)
        self._paused = False  # the connection asked us to stop handing it bytes
        self._pumping = False
        self.peer = "?"

    # --- the raw socket's protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream socket's transport (asyncio hands a BaseTransport)
        self.raw = transport  # type: ignore[assignment]
        peer = transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        if self._admit is not None and not self._admit(transport):
            return  # not read; the server closes it after the throttle time
        self._timer = asyncio.get_running_loop().call_later(HANDSHAKE_TIMEOUT_S, self._handshake_timed_out)

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._read_view

    def buffer_updated(self, nbytes: int) -> None:
        self._incoming.write(self._read_view[:nbytes])
        if self.inner is None:
            self._handshake()
        else:
            self._pump()

    def eof_received(self) -> bool:
        self._incoming.write_eof()
        if self.inner is not None:
            self._pump()
        return False  # close our side too

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timer()
        if self.inner is not None:
            self.inner.connection_lost(exc)
        else:
            self._on_handshake_end(self)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    # --- handshake

    def _handshake(self) -> None:
        try:
            self.sslobj.do_handshake()
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            self.flush()
            return
        except (ssl.SSLError, OSError) as e:
            # what OpenSSL wrote for the peer is the alert that names the failure: send it, then close
            log.info("closing %s: TLS handshake failed: %s", self.peer, e)
            self.flush()
            self._cancel_timer()
            self.raw.close()
            return
        self.flush()
        self._cancel_timer()
        self._on_handshake_end(self)
        self.inner = self._new_connection()
        # our TLS transport duck-types asyncio.Transport for the inner protocol
        self.inner.connection_made(self._transport)  # type: ignore[arg-type]
        self._pump()  # application data that came with the client's Finished

    def _handshake_timed_out(self) -> None:
        self._timer = None
        if self.inner is None:
            log.info("closing %s: no TLS handshake within %.0f s", self.peer, HANDSHAKE_TIMEOUT_S)
            self.raw.abort()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # --- records in

    def _pump(self) -> None:
        """Decrypt into the connection's buffers while it reads."""
        inner = self.inner
        if inner is None or self._pumping:
            return
        self._pumping = True
        try:
            while not self._paused and not inner._closed and not self.raw.is_closing():
                buf = inner.get_buffer(-1)
                try:
                    n = self.sslobj.read(len(buf), buf)
                except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
                    break
                except ssl.SSLZeroReturnError:
                    self.close()
                    break
                except ssl.SSLEOFError:  # the client closed its socket without close_notify: common
                    log.debug("%s closed the connection without TLS close_notify", self.peer)
                    self.raw.close()
                    break
                except (ssl.SSLError, OSError) as e:
                    log.info("closing %s: TLS error: %s", self.peer, e)
                    self.flush()
                    self.raw.close()
                    break
                if n == 0:
                    # the client's close_notify (an empty read; no data yet raises SSLWantReadError):
                    # answer with ours and close. asyncio's TLS clients wait for that answer, up to
                    # their ssl_shutdown_timeout (30 s), before they call the connection closed.
                    self.close()
                    break
                # typeshed types SSLObject.read as bytes; with a buffer it returns the byte count
                inner.buffer_updated(n)  # type: ignore[arg-type]
        finally:
            self._pumping = False
        if self._outgoing.pending:  # TLS 1.3 key updates, or an alert
            self.flush()

    def pause_reading(self) -> None:
        self._paused = True
        if not self.raw.is_closing():
            self.raw.pause_reading()

    def resume_reading(self) -> None:
        self._paused = False
        if not self.raw.is_closing():
            self.raw.resume_reading()
        # records already received (in the BIO or decrypted in the SSL object) wait for no socket read
        if self._incoming.pending or self.sslobj.pending():
            asyncio.get_running_loop().call_soon(self._pump)

    # --- records out

    def flush(self) -> None:
        if self._outgoing.pending and not self.raw.is_closing():
            self.raw.write(self._outgoing.read())

    def close(self) -> None:
        if self.raw.is_closing():
            return
        try:
            self.sslobj.unwrap()  # close_notify; the peer's answer is not waited for
        except (ssl.SSLError, OSError):
            pass
        self.flush()
        self.raw.close()
