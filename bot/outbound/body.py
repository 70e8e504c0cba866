"""A response body read under a size cap and a deadline, gzip (or zlib deflate) undone.

The cap counts the bytes as they will be parsed, so a small gzip that inflates to gigabytes
(a "zip bomb") fails as soon as it passes the cap; nothing is parsed of a body over the cap.
"""

from __future__ import annotations

import http.client
import zlib

from bot.outbound.deadline import Deadline

_CHUNK = 65_536
# zlib's window bits: 32 + 15 reads either a gzip or a zlib header.
_AUTO_HEADER = 32 + zlib.MAX_WBITS


class TooLarge(Exception):
    """The body (once inflated) is over the cap."""


class CutOff(Exception):
    """The connection closed before the Content-Length was sent, or a gzip stream broke."""


class UnknownEncoding(Exception):
    """A Content-Encoding the bot did not ask for (it asks for gzip only)."""


def read_capped(*, response: http.client.HTTPResponse, deadline: Deadline, limit: int) -> bytes:
    """The whole body, at most `limit` bytes after decoding; TooLarge, CutOff, UnknownEncoding,
    or TimeoutError once the deadline passes (a shut socket reads as the end of the body)."""
    declared = response.getheader("Content-Length")
    encoding = (response.getheader("Content-Encoding") or "identity").strip().lower()
    if encoding not in ("identity", "gzip", "x-gzip", "deflate"):
        raise UnknownEncoding(encoding)
    if encoding == "identity" and declared and declared.isdigit() and int(declared) > limit:
        raise TooLarge(int(declared))
    inflate = zlib.decompressobj(_AUTO_HEADER) if encoding != "identity" else None
    chunks: list[bytes] = []
    size = 0
    while True:
        deadline.left()
        raw = response.read1(_CHUNK)
        if not raw:
            break
        data = raw
        if inflate is not None:
            try:
                data = inflate.decompress(raw, limit + 1 - size)
            except zlib.error as error:
                raise CutOff(f"a broken {encoding} stream ({error})") from None
            if inflate.unconsumed_tail:
                raise TooLarge(size + len(data))
        size += len(data)
        if size > limit:
            raise TooLarge(size)
        chunks.append(data)
    if deadline.over():
        raise TimeoutError("the deadline passed")
    if response.length:  # bytes the Content-Length promised that never came
        raise CutOff(f"{response.length:,} bytes missing")
    if inflate is not None and not inflate.eof:
        raise CutOff(f"the {encoding} stream ends early")
    return b"".join(chunks)
