"""A file's bytes as text: the encoding its byte-order mark names, else UTF-8, else Latin-1."""

from __future__ import annotations

import codecs

# UTF-32 first: its little-endian mark begins with UTF-16's (FF FE, then 00 00).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def decode(*, data: bytes) -> tuple[str, str]:
    """The text of a file and the encoding it was read as. A byte-order mark settles it (Excel
    and Windows tools save "Unicode text" as UTF-16 with one); a stray bad byte after a mark
    becomes U+FFFD. Without a mark: UTF-8, else Latin-1, so nothing is refused unread."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, "replace"), encoding
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"
