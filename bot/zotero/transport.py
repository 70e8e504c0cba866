"""One HTTP exchange with the Zotero API, on the outbound helpers every other edge uses: the whole
request bounded by one deadline, the address checked before connecting (loopback only when the
tests' fake is allowed), the body read under a size cap. No retry here (session.py decides)."""

from __future__ import annotations

import http.client
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.outbound.address import AddressRefused, guarded_dial
from bot.outbound.body import CutOff, TooLarge, UnknownEncoding, read_capped
from bot.outbound.deadline import Deadline, WatchedConnection, WatchedTlsConnection
from bot.outbound.failure import failure

BODY_MAX = 20_000_000  # bytes: a page of 100 items with long abstracts and notes is ~1 MB
TIMEOUT_S = 30.0  # seconds for one exchange as a whole


class Dropped(Exception):
    """No answer: the connection failed, closed early or timed out. The request may or may not
    have been processed (a write may be stored), so only a request safe to replay is sent
    again."""


class Refused(Exception):
    """Not worth retrying: the address is not one the bot connects to, or the answer cannot be
    read (over the size cap, an encoding not asked for)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """An answer: status, headers by lower-case name, body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def header(self, name: str) -> str | None:
        """A response header by name (any case), None when absent."""
        return self.headers.get(name.lower())


def exchange(
    *,
    method: str,
    url: str,
    headers: dict[str, str],
    body: bytes | None,
    allow_private: bool,
    timeout: float = TIMEOUT_S,
) -> Reply:
    """Send one request and read its whole answer; Dropped or Refused when there is none."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(f"not an http(s) URL: {url[:100]!r}")
    deadline = Deadline(seconds=timeout, dial=guarded_dial(allow_private=allow_private))
    kind = WatchedTlsConnection if parts.scheme == "https" else WatchedConnection
    connection = kind(parts.hostname, port=parts.port, timeout=timeout, deadline=deadline)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request(method, target, body=body, headers=headers)
        response = connection.getresponse()
        data = read_capped(response=response, deadline=deadline, limit=BODY_MAX)
        found = {name.lower(): value for name, value in response.getheaders()}
        return Reply(status=response.status, headers=found, body=data)
    except AddressRefused as refused:
        raise Refused(str(refused)) from None
    except (TooLarge, UnknownEncoding) as odd:
        raise Refused(f"an answer not read ({type(odd).__name__})") from None
    except (OSError, http.client.HTTPException, CutOff, ValueError) as error:
        why = "no answer in time" if deadline.over() else failure(exc=error)
        raise Dropped(why[:300]) from None
    finally:
        connection.close()
        deadline.close()
