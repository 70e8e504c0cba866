"""Neutral messages as Discord message content (markdown) and components (buttons); pure.

Every run's text is data, made inert by bot.discord.markdown; the markup here is the bot's own.
Strong is **bold**. Code is an inline code span, fenced with two backticks when its text holds
one, and shown as data when no fence holds it or it could carry a ping, an invite or a URL
(Discord's server reads those even inside code). Links follow bot.discord.links. ChannelRef is
`<#id>`: a channel mention, which pings nobody. PersonRef is `<@id>`: Discord shows the person's
current name, and with ALLOWED_MENTIONS (sent with every message; embeds never ping at all) it
notifies nobody; an id that is no Discord snowflake is shown as data. When is the date every
platform shows. A quiet paragraph is subtext (`-# `); a list is plain lines ("1\\. " with its
full stop escaped, or "• "), so Discord never folds the next paragraph into a list item; a
divider is a blank line. Buttons are no text: components() makes them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterator
from typing import Any, Final, Protocol

from bot.discord.links import link
from bot.discord.markdown import (
    ELLIPSIS,
    RAW_RISK,
    ZWSP,
    clean,
    clip,
    data,
    size,
    squash,
    squash_inside,
)
from bot.messages import (
    Button,
    Buttons,
    ChannelRef,
    Code,
    Divider,
    Link,
    Listing,
    Message,
    Paragraph,
    PersonRef,
    Plain,
    Run,
    Strong,
    When,
    format_date,
    plain_text,
)

Component = dict[str, Any]


class Key(Protocol):
    """Turns a button value too long for a custom id into a short key the plug-in can read."""

    def __call__(self, *, value: str) -> str:
        """The short key for `value`."""
        ...


# Sent with every message: no @everyone, @here, role or user mention notifies anyone, nor the
# author of a message replied to.
ALLOWED_MENTIONS: Final[dict[str, Any]] = {"parse": [], "replied_user": False}
CONTENT_MAX = 2000
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
ROW_BUTTONS = 5
ROWS_MAX = 5
ACTION_ROW = 1
BUTTON = 2
SECONDARY = 2
PREFIX = "paperclub"
SUBTEXT = "-# "
BULLET = "• "
LINE_MIN = 100  # a line clipped to make room for the next ones keeps at least this much
_SNOWFLAKE = re.compile(r"[1-9][0-9]{14,19}")
_ACTION = re.compile(r"[a-z][a-z_]{0,39}")
# The bot's own markup begins and ends with these; two spans side by side ("**a****b**")
# would pair wrongly, so a zero-width space keeps them apart.
_MARKERS = "*`"


def _strong(*, text: str, limit: int) -> str:
    """Bold data; spaces at its ends stay outside the markers."""
    raw = squash_inside(clean(text))
    inner = raw.strip()
    if not inner:
        return data(text=raw, limit=limit)
    head = " " if raw[0] == " " else ""
    tail = " " if raw[-1] == " " else ""
    room = limit - 4 - len(head) - len(tail)
    if room < 1:
        return data(text=inner, limit=limit)
    return f"{head}**{data(text=inner, limit=room)}**{tail}"


def _code(*, text: str, limit: int) -> str:
    """An inline code span, or data when no fence can hold the text safely."""
    raw = squash(clean(text))
    if not raw or "``" in raw or RAW_RISK.search(raw):
        return data(text=text, limit=limit)
    if "`" not in raw:
        room = limit - 2
        return f"`{clip(text=raw, limit=room)}`" if room > 0 else data(text=text, limit=limit)
    # Two backticks fence one; a space keeps a backtick at an end off the fence (Discord drops
    # that space again).
    room = limit - 4 - raw.startswith("`") - raw.endswith("`")
    if room < 1:
        return data(text=text, limit=limit)
    shown = clip(text=raw, limit=room)
    head = " " if shown.startswith("`") else ""
    tail = " " if shown.endswith("`") else ""
    return f"``{head}{shown}{tail}``"


def _run(*, run: Run, limit: int, vouched: Collection[str]) -> str:
    """One run as markdown, within `limit` units unless it cannot be cut (a mention)."""
    if isinstance(run, Plain):
        return data(text=run.text, limit=limit)
    if isinstance(run, Strong):
        return _strong(text=run.text, limit=limit)
    if isinstance(run, Code):
        return _code(text=run.text, limit=limit)
    if isinstance(run, Link):
        return link(url=run.url, label=run.label, limit=limit, vouched=vouched)
    if isinstance(run, ChannelRef):
        if _SNOWFLAKE.fullmatch(run.channel):
            return f"<#{run.channel}>"
        return data(text="#" + run.channel, limit=limit)
    if isinstance(run, PersonRef):
        return (
            f"<@{run.user}>" if _SNOWFLAKE.fullmatch(run.user) else data(text=run.user, limit=limit)
        )
    assert isinstance(run, When)
    return format_date(day=run.day, year=run.year)


def inline(*, runs: tuple[Run, ...], limit: int, vouched: Collection[str] = ()) -> str:
    """Runs as one line of markdown within `limit` units; what does not fit is clipped or
    dropped, and the line then ends with "…". `vouched`: URLs the caller counts as ours."""
    out: list[str] = []
    left = limit
    cut = False
    for n, run in enumerate(runs):
        room = left if n == len(runs) - 1 else left - 1  # room for "…" after a cut run
        if room < 1 and plain_text(run=run):
            cut = True
            break
        text = _run(run=run, limit=room, vouched=vouched)
        if out and text and out[-1][-1:] in _MARKERS and text[0] in _MARKERS:
            text = ZWSP + text
        if size(text) > room:
            cut = True
            break
        out.append(text)
        left -= size(text)
    shown = "".join(out)
    return shown + ELLIPSIS if cut and not shown.endswith(ELLIPSIS) else shown


def _rows(*, message: Message) -> Iterator[tuple[str, tuple[Run, ...]]]:
    """(line head, runs) of every line the message shows; a divider is an empty line."""
    for block in message.blocks:
        if isinstance(block, Paragraph):
            yield (SUBTEXT if block.quiet else ""), block.runs
        elif isinstance(block, Listing):
            for n, item in enumerate(block.items, start=block.start):
                yield (f"{n}\\. " if block.ordered else BULLET), item
        elif isinstance(block, Divider):
            yield "", ()


def _rooms(*, sizes: list[int], budget: int) -> list[int | None]:
    """Room for each line within `budget` units (newlines between them included): all it needs
    when everything fits; else, for as many lines as can each keep LINE_MIN units (or all they
    need), the short ones whole and the long ones an equal share of what is left (max-min
    fair); None for the lines after them, left out for a last "…"."""
    for count in range(len(sizes), 0, -1):
        left = budget - (count - 1)
        rooms: list[int | None] = [None] * len(sizes)
        for n, i in enumerate(sorted(range(count), key=lambda k: sizes[k])):
            room = min(sizes[i], left // (count - n))
            rooms[i] = room
            left -= room
        if all((rooms[i] or 0) >= min(sizes[i], LINE_MIN) for i in range(count)):
            return rooms
    return [None] * len(sizes)


def _line(*, head: str, runs: tuple[Run, ...], limit: int) -> str:
    """One line: its head (a list marker, subtext) then its runs, within `limit` units."""
    text = inline(runs=runs, limit=limit - size(head))
    return head + text if text.strip() else text


def render(*, message: Message) -> str:
    """The message as Discord content: at most 2,000 units, never empty. When it does not fit,
    long lines are clipped to a fair share so that every line is seen (a search page shows
    every hit it counts); lines that cannot keep LINE_MIN units are left out for a last "…"."""
    rows = list(_rows(message=message))
    whole = [_line(head=head, runs=runs, limit=10**6) for head, runs in rows]
    rooms = _rooms(sizes=[size(line) for line in whole], budget=CONTENT_MAX - len("\n" + ELLIPSIS))
    lines: list[str] = []
    for (head, runs), shown, room in zip(rows, whole, rooms, strict=True):
        if room is None:
            lines.append(ELLIPSIS)
            break
        lines.append(shown if room >= size(shown) else _line(head=head, runs=runs, limit=room))
    return "\n".join(lines).strip("\n") or ELLIPSIS


def value_key(*, value: str) -> str:
    """A short stable key for a button value too long for a custom id ("~" and 40 hex digits);
    the plug-in keeps key -> value to read the click."""
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return "~" + digest[:40]


def custom_id(*, action: str, value: str, key: Key = value_key) -> str:
    """'paperclub:{action}:{value}' within 100 units; a longer value is replaced by key(value=…).
    ValueError for an action that is not a short snake_case word."""
    if not _ACTION.fullmatch(action):
        raise ValueError(f"not a button action: {action!r}")
    head = f"{PREFIX}:{action}:"
    if size(whole := head + value) <= CUSTOM_ID_MAX:
        return whole
    if size(short := head + key(value=value)) > CUSTOM_ID_MAX:
        raise ValueError(f"the key for {action!r} does not fit a custom id")
    return short


def read_custom_id(*, custom_id: object) -> tuple[str, str] | None:
    """(action, value) of one of our custom ids; None for anything else, never raising."""
    if not isinstance(custom_id, str) or len(custom_id) > CUSTOM_ID_MAX:
        return None
    prefix, _, rest = custom_id.partition(":")
    action, sep, value = rest.partition(":")
    if prefix != PREFIX or not sep or not _ACTION.fullmatch(action):
        return None
    return action, value


def button(*, label: str, custom_id: str, style: int = SECONDARY) -> Component:
    """A button: its label is plain text (Discord parses no markdown there), 1-80 units."""
    shown = clip(text=squash(clean(label)), limit=BUTTON_LABEL_MAX) or ELLIPSIS
    return {"type": BUTTON, "style": style, "label": shown, "custom_id": custom_id}


def action_row(*, buttons: list[Component]) -> Component:
    """An action row holding up to five buttons."""
    return {"type": ACTION_ROW, "components": buttons[:ROW_BUTTONS]}


def _button_of(*, button_: Button, key: Key) -> Component:
    """A neutral button as a Discord button."""
    cid = custom_id(action=button_.action, value=button_.value, key=key)
    return button(label=button_.label, custom_id=cid)


def components(*, message: Message, key: Key = value_key) -> list[Component]:
    """The message's buttons as action rows: five buttons a row, five rows at most; a value
    too long for a custom id is replaced by key(value=…)."""
    rows: list[Component] = []
    for block in message.blocks:
        if isinstance(block, Buttons):
            for start in range(0, len(block.buttons), ROW_BUTTONS):
                chunk = block.buttons[start : start + ROW_BUTTONS]
                rows.append(action_row(buttons=[_button_of(button_=b, key=key) for b in chunk]))
    return rows[:ROWS_MAX]
