"""What a person typed, without what the terminal sent along with it: escape sequences (an
arrow key read by a terminal without line editing arrives as ESC [ A) and control characters.

Every console line goes through here before it becomes a comment, a command or a vote, so no
cursor movement, colour or terminal title of anyone's typing is ever stored, exported or
replayed to another terminal."""

from __future__ import annotations

import re
import unicodedata

# ECMA-48, as 7-bit ESC forms and their 8-bit C1 bytes (which decoded UTF-8 gives as U+0080 to
# U+009F). CSI: parameters 0x30-0x3F, intermediates 0x20-0x2F, one final 0x40-0x7E (missing
# when the line was cut). OSC, DCS, SOS, PM and APC: a string ended by BEL or ST (ESC \ or
# U+009C), or by the end of the line. SS2 and SS3 take one more character (F1-F4 and the
# arrows in application mode arrive as ESC O A). Any other ESC: intermediates and one final.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b[NO]|[\x8e\x8f]).?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
)


def _kept(*, char: str) -> str:
    """Whitespace controls (tab, a newline pasted inside the line) as a space; any other control
    character (C0, DEL, C1) as nothing; a lone surrogate (a byte that was no UTF-8, as Python
    decodes it in the C locale) as U+FFFD, since no database or JSON can carry it."""
    category = unicodedata.category(char)
    if category == "Cc":
        return " " if char.isspace() else ""
    return "\ufffd" if category == "Cs" else char


def cleaned(*, line: str) -> str:
    """The line without escape sequences and control characters, ends trimmed; empty when it
    held nothing else."""
    if line.isprintable():
        return line.strip()
    text = _SEQUENCE.sub("", line)
    return "".join(_kept(char=c) for c in text).strip()
