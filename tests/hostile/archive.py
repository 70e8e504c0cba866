"""The hostile archive every platform's test goes through: papers, authors, abstracts and a
comment carrying pings, disguised links, chat markup, terminal markup and 3,000-character
words, first in the queue."""

from __future__ import annotations

from datetime import datetime

from bot.db.database import Database
from bot.domain import PaperDraft
from bot.services import importing

HOSTILE = (
    "<!channel> <!here> <!everyone> @everyone @here <@U1> <#C1> <https://evil.example|x> "
    "[x](https://evil.example) *b* _i_ ~s~ `c` | &amp; "
    "[bold]b[/bold] [link=https://evil.example]x[/link] [/]"
)
TITLES = [f"Wombat {n} {HOSTILE}" for n in range(7)]
COMMENT = "quokka <!channel> @here <@U1> *b* _i_ `c` | &amp; <https://evil.example|x> [/] [b]"
LONG_WORD = "w" * 3000


def import_hostile(*, url: str, now: datetime, extra: str = "") -> None:
    """Put the hostile papers into the migrated database at `url` (`extra`: more hostile text
    for one platform's titles)."""
    database = Database(url=url)
    drafts = [
        PaperDraft(
            title=title + extra,
            abstract=f"Study {n}: {HOSTILE} {LONG_WORD}",
            authors=(HOSTILE,),
            url=f"https://example.org/paper/{n}",
            origin=f"hostile:{n}",
        )
        for n, title in enumerate(TITLES)
    ]
    try:
        importing.import_drafts(uow=database, drafts=drafts, now=now)
    finally:
        database.dispose()
