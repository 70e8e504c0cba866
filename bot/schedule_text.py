"""Pure parsing and wording of schedule text: HH:MM times and weekday sets."""

from __future__ import annotations

import re
from datetime import time

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_FULL_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class ScheduleTextError(ValueError):
    """Text that is not a time or a set of days; the message says what is expected."""


def parse_hhmm(*, text: str) -> time:
    """Parse 24-hour HH:MM (also H:MM) into a time."""
    match = re.fullmatch(r"\s*([01]?\d|2[0-3]):([0-5]\d)\s*", text)
    if not match:
        raise ScheduleTextError(f"expected a 24-hour time like 09:00, got {text!r}")
    return time(int(match.group(1)), int(match.group(2)))


def _day(*, name: str) -> int:
    """ISO weekday number (1=Monday) of a three-letter or full day name."""
    key = name.strip().lower()[:3]
    if key not in DAY_NAMES or not _FULL_NAMES[DAY_NAMES.index(key)].lower().startswith(
        name.strip().lower()
    ):
        raise ScheduleTextError(f"{name!r} is not a day; use mon, tue, wed, thu, fri, sat, sun")
    return DAY_NAMES.index(key) + 1


def parse_days(*, text: str) -> frozenset[int]:
    """Parse `daily`, `weekdays`, `mon-fri`, `mon,wed,fri` (and mixes) into ISO weekdays."""
    spec = text.strip().lower()
    if spec in {"daily", "every day", "everyday", "all"}:
        return frozenset(range(1, 8))
    if spec in {"weekdays", "workdays"}:
        return frozenset(range(1, 6))
    if spec == "weekends":
        return frozenset({6, 7})
    days: set[int] = set()
    for part in filter(None, (p.strip() for p in spec.split(","))):
        if "-" in part:
            first, _, last = part.partition("-")
            start, end = _day(name=first), _day(name=last)
            span = range(start, end + 1) if start <= end else [*range(start, 8), *range(1, end + 1)]
            days.update(span)
        else:
            days.add(_day(name=part))
    if not days:
        raise ScheduleTextError("no days given; use mon-fri, daily or a list like mon,wed,fri")
    return frozenset(days)


def describe_days(*, days: frozenset[int]) -> str:
    """Say a set of weekdays the way a person would: `weekdays`, `every day`, `Mon, Wed, Fri`."""
    if days == frozenset(range(1, 8)):
        return "every day"
    if days == frozenset(range(1, 6)):
        return "weekdays (Mon–Fri)"
    if days == frozenset({6, 7}):
        return "weekends"
    return ", ".join(DAY_NAMES[d - 1].capitalize() for d in sorted(days))


def days_to_text(*, days: frozenset[int]) -> str:
    """Store a weekday set as `mon,tue,...` (parse_days reads it back)."""
    return ",".join(DAY_NAMES[d - 1] for d in sorted(days))
