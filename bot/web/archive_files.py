"""The archive's files for reference managers: a public channel's papers and a period's, as
BibTeX and RIS downloads (linked from the channel and top pages)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from flask import Flask, Response, abort, g

from bot.domain import PaperRecord
from bot.export_formats import render
from bot.ports import Store, UnitOfWork
from bot.services import archive_files

# The file kinds served: (export format, media type). Both are UTF-8 text.
KINDS = {
    "bib": ("bibtex", "application/x-bibtex"),
    "ris": ("ris", "application/x-research-info-systems"),
}


def file_name(*, stem: str, kind: str) -> str:
    """A download's file name: `stem` cut to letters, digits, "-" and "_" (a channel's name is
    anyone's text, and it lands in a header and on a disk), "papers" when nothing is left."""
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")[:60] or "papers"
    return f"paperclub-{safe}.{kind}"


def download(*, records: list[PaperRecord], kind: str, stem: str) -> Response:
    """`records` as a `kind` file, offered to save rather than shown."""
    if kind not in KINDS:
        abort(404)
    fmt, media = KINDS[kind]
    answer = Response(render(records=records, fmt=fmt), content_type=f"{media}; charset=utf-8")
    answer.headers["Content-Disposition"] = (
        f'attachment; filename="{file_name(stem=stem, kind=kind)}"'
    )
    return answer


def add_files(*, app: Flask, uow: UnitOfWork[Store], today: Callable[[], date]) -> None:
    """The download routes, on the workspace the request chose (g.workspace)."""

    @app.get("/channel/<name>/papers.<kind>")
    def channel_file(name: str, kind: str) -> Response:
        """Every paper a public channel posted (404 for a private one, as its page)."""
        found = archive_files.channel_records(uow=uow, workspace=g.workspace, name=name)
        if found is None:
            abort(404)
        return download(records=found[1], kind=kind, stem=name)

    @app.get("/top/<period>/papers.<kind>")
    def top_file(period: str, kind: str) -> Response:
        """Every paper posted publicly in the last week, month or year."""
        records = archive_files.period_records(
            uow=uow, workspace=g.workspace, period=period, today=today()
        )
        if records is None:
            abort(404)
        return download(records=records, kind=kind, stem=f"last-{period}")
