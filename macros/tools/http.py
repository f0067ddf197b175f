"""Network reads for `make index`, bounded: every answer has a size cap and every read an overall
deadline (a server that drips one byte at a time cannot hold the command past it). Errors are
`IndexFetchError` with one line naming the URL; callers turn them into exit 2 or an "unknown".
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass

USER_AGENT = "pytorch-release-atlas"
#: Bytes read at a time; the deadline is checked between reads.
_CHUNK = 64 * 1024


class IndexFetchError(Exception):
    """A read that failed: unreachable, refused, too large, too slow, not HTTP(S)."""


@dataclass(frozen=True)
class Deadline:
    """A moment (time.monotonic) after which no read may go on."""

    at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(time.monotonic() + seconds)

    def left(self) -> float:
        return self.at - time.monotonic()


def check_url(url: str) -> str:
    """The URL if it is http(s) with a host; IndexFetchError otherwise (file:, ftp:, javascript:)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise IndexFetchError(f"{url[:200]!r} is not an http(s) URL")
    return url


def get(
    url: str,
    *,
    accept: str = "*/*",
    deadline: Deadline,
    max_bytes: int,
    byte_range: tuple[int, int] | None = None,
    per_read_timeout: float = 60.0,
) -> bytes:
    """The body of a GET (following up to 3 redirects), or IndexFetchError. `byte_range`
    (first, last) asks for part of a file; a server that ignores it is refused when the whole
    body would exceed `max_bytes`. At the deadline the socket is shut, so even a server that
    drips its headers cannot hold the read."""
    for _ in range(4):
        status, location, body = _get_once(url, accept, deadline, max_bytes, byte_range, per_read_timeout)
        if location is None:
            if status >= 400:
                raise IndexFetchError(f"{url}: HTTP {status}")
            return body
        url = urllib.parse.urljoin(url, location)
    raise IndexFetchError(f"{url}: too many redirects")


#: Per thread, one open connection per host: metadata reads are thousands of small answers from
#: one host, and a TLS handshake each took most of `make index`'s time.
_pool = threading.local()


def _connection(scheme: str, netloc: str, timeout: float) -> tuple[http.client.HTTPConnection, bool]:
    """An open connection to the host (reused: True) or a new one."""
    connections: dict[tuple[str, str], http.client.HTTPConnection] = _pool.__dict__.setdefault("connections", {})
    kept = connections.pop((scheme, netloc), None)
    if kept is not None and kept.sock is not None:
        kept.sock.settimeout(timeout)
        return kept, True
    connection_type = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
    return connection_type(netloc, timeout=timeout), False


def _keep(scheme: str, netloc: str, connection: http.client.HTTPConnection) -> None:
    _pool.__dict__.setdefault("connections", {})[(scheme, netloc)] = connection


def _get_once(
    url: str,
    accept: str,
    deadline: Deadline,
    max_bytes: int,
    byte_range: tuple[int, int] | None,
    per_read_timeout: float,
) -> tuple[int, str | None, bytes]:
    parts = urllib.parse.urlsplit(check_url(url))
    for attempt in range(2):
        left = deadline.left()
        if left <= 0:
            raise IndexFetchError(f"{url}: the overall deadline passed before the read")
        try:
            connection, reused = _connection(parts.scheme, parts.netloc, min(per_read_timeout, left))
        except (ValueError, http.client.HTTPException) as error:
            raise IndexFetchError(f"{url}: {error}") from None
        try:
            return _exchange(connection, parts, url, accept, deadline, max_bytes, byte_range)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            connection.close()
            if not reused or attempt:
                raise IndexFetchError(f"{url}: the server closed the connection") from None
            # A kept connection the server had closed meanwhile: once more on a new one.
    raise IndexFetchError(f"{url}: the server closed the connection")


def _exchange(
    connection: http.client.HTTPConnection,
    parts: urllib.parse.SplitResult,
    url: str,
    accept: str,
    deadline: Deadline,
    max_bytes: int,
    byte_range: tuple[int, int] | None,
) -> tuple[int, str | None, bytes]:
    timer = threading.Timer(max(deadline.left(), 0), _shut, (connection,))
    timer.daemon = True
    timer.start()
    keep = False
    try:
        headers = {"Accept": accept, "User-Agent": USER_AGENT}
        if byte_range is not None:
            headers["Range"] = f"bytes={byte_range[0]}-{byte_range[1]}"
        path = parts.path or "/"
        connection.request("GET", path + (f"?{parts.query}" if parts.query else ""), headers=headers)
        response = connection.getresponse()
        if response.status in {301, 302, 303, 307, 308}:
            response.close()
            return response.status, response.getheader("Location") or "", b""
        length = response.getheader("Content-Length")
        if length is not None and length.isdigit() and int(length) > max_bytes:
            raise IndexFetchError(f"{url}: the answer is {int(length):,} bytes, more than the {max_bytes:,} allowed")
        body = bytearray()
        while True:
            if deadline.left() <= 0:
                raise IndexFetchError(f"{url}: no complete answer before the overall deadline")
            chunk = response.read1(_CHUNK)
            if not chunk:
                break
            body += chunk
            if len(body) > max_bytes:
                raise IndexFetchError(f"{url}: the answer is more than the {max_bytes:,} bytes allowed")
        keep = not response.will_close
        response.close()  # read to the end: the connection may carry the next request
        return response.status, None, bytes(body)
    except (IndexFetchError, http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
        raise
    except (OSError, http.client.HTTPException, ValueError) as error:
        if deadline.left() <= 0:
            raise IndexFetchError(f"{url}: no complete answer before the overall deadline") from None
        raise IndexFetchError(f"{url}: {type(error).__name__}: {error}") from None
    finally:
        timer.cancel()
        if keep and deadline.left() > 0:
            _keep(parts.scheme, parts.netloc, connection)
        else:
            connection.close()


def _shut(connection: http.client.HTTPConnection) -> None:
    """The deadline passed: end the read in progress, whatever the server does."""
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
