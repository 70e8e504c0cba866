"""Papers a reference manager would find by (arXiv id, DOI), added to archive_data's seed: one
posted publicly under a hostile title, one posted only in the private channel."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from bot.db.schema import ChannelRow, PaperRow, PostRow, WorkspaceRow
from tests.web.archive_data import TODAY

# Every character an attribute, a URL query, a RIS line or a BibTeX value could break on.
HOSTILE_TITLE = (
    'He said "hi" & left\' onload="alert(1)" --><script>alert(2)</script> '
    "a=b&rft.au=Mallory {unbalanced <!channel> 🧪"
)
HOSTILE_AUTHORS = ('Eve "Quote" O\'Hara', "Barnes and Noble", "<b>Bold</b> Author")
ARXIV_ID = "2401.00001"
DOI = "10.1234/ab-c#d?e&f"
PRIVATE_ARXIV = "Privatearxiv paper posted only in the private channel"
# The public paper's Highwire tags, in page order, as a reference manager reads them.
PUBLIC_META = (
    ("citation_title", HOSTILE_TITLE),
    *(("citation_author", name) for name in HOSTILE_AUTHORS),
    ("citation_publication_date", "2024/01"),
    ("citation_date", "2024/01"),
    ("citation_doi", DOI),
    ("citation_arxiv_id", ARXIV_ID),
    ("citation_abstract_html_url", f"https://arxiv.org/abs/{ARXIV_ID}"),
    ("citation_pdf_url", f"https://arxiv.org/pdf/{ARXIV_ID}"),
    ("citation_abstract", f"An abstract with {HOSTILE_TITLE}"),
)


@dataclass(frozen=True)
class Citable:
    """The ids of the two papers."""

    public: int
    private: int


def seed_citable(*, url: str) -> Citable:
    """Add the two papers (after archive_data.seed) and their posts, the day after the seed's
    last (a channel posts once a day): the newest of the archive."""
    engine = create_engine(url)
    try:
        with Session(engine) as s, s.begin():
            ws = s.scalars(select(WorkspaceRow).where(WorkspaceRow.team == "T1")).one()
            channels = {
                row.external_id: row
                for row in s.scalars(select(ChannelRow).where(ChannelRow.workspace == "T1"))
            }
            when = datetime(2026, 11, 30, 9, tzinfo=UTC)
            papers = []
            for n, (title, arxiv, doi) in enumerate(
                ((HOSTILE_TITLE, ARXIV_ID, DOI), (PRIVATE_ARXIV, "2402.00002", None))
            ):
                paper = PaperRow(
                    workspace_id=ws.id,
                    title=title,
                    authors=list(HOSTILE_AUTHORS) if n == 0 else ["Private Person"],
                    abstract=f"An abstract with {HOSTILE_TITLE}" if n == 0 else "Private.",
                    url=f"https://arxiv.org/abs/{arxiv}",
                    arxiv_id=arxiv,
                    doi=doi,
                    fingerprint=f"citable{n}",
                    source="test",
                    added_at=when,
                    position=2000 + n,
                    status="posted",
                )
                s.add(paper)
                s.flush()
                channel = channels["CPUB" if n == 0 else "CPRIV"]
                s.add(
                    PostRow(
                        paper_id=paper.id,
                        channel_id=channel.id,
                        local_date=TODAY + timedelta(days=1),
                        state="posted",
                        message_id=f"citable{n}",
                        permalink=None,
                        created_at=when,
                    )
                )
                papers.append(paper.id)
            return Citable(public=papers[0], private=papers[1])
    finally:
        engine.dispose()
