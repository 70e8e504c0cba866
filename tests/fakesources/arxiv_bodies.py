"""The RSS 2.0 and Atom documents rss.arxiv.org serves, element for element.

Shapes follow arXiv's feed specifications (arxiv-docs source/help/rss_specifications.md and
atom_specifications.md) and the real captures in samples/: the description/summary opens
"arXiv:<id>v<n> Announce Type: <type> " then a newline and "Abstract: "; dc:creator is one
comma-separated list; categories are listed in order; DOI and journal reference only when known.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from email.utils import format_datetime
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr
from zoneinfo import ZoneInfo

from .announcements import Announcement

EASTERN = ZoneInfo("America/New_York")
_BUILD_DELAY = timedelta(seconds=11, microseconds=866337)  # the feed is built just after midnight
_RSS_NS = (
    'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:atom="http://www.w3.org/2005/Atom" '
    'xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0"'
)
_ATOM_NS = (
    'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns="http://www.w3.org/2005/Atom" xml:lang="en-us"'
)

Listing = Sequence[tuple[Announcement, str]]


def midnight(*, day: date) -> datetime:
    """Midnight Eastern on `day`: the announcement date every item carries."""
    return datetime.combine(day, time(0), tzinfo=EASTERN)


def built_at(*, day: date) -> datetime:
    """When the feed of `day` was generated (UTC): its lastBuildDate, updated, Last-Modified."""
    return (midnight(day=day) + _BUILD_DELAY).astimezone(ZoneInfo("UTC"))


def _description(*, paper: Announcement, kind: str) -> str:
    """The text of description (RSS) and summary (Atom), the trailing space included."""
    return f"arXiv:{paper.versioned_id} Announce Type: {kind} \nAbstract: {paper.abstract}"


def _extras(*, paper: Announcement, indent: str) -> str:
    """arxiv:DOI and arxiv:journal_reference, present only when the paper has them."""
    out = ""
    if paper.doi:
        out += f"\n{indent}<arxiv:DOI>{escape(paper.doi)}</arxiv:DOI>"
    if paper.journal_ref:
        out += f"\n{indent}<arxiv:journal_reference>{escape(paper.journal_ref)}"
        out += "</arxiv:journal_reference>"
    return out


def _rss_item(*, paper: Announcement, kind: str, day: date) -> str:
    """One <item> of the RSS feed."""
    pad = " " * 6
    categories = "".join(f"\n{pad}<category>{escape(c)}</category>" for c in paper.categories)
    return (
        f"    <item>\n{pad}<title>{escape(paper.title)}</title>"
        f"\n{pad}<link>https://arxiv.org/abs/{paper.arxiv_id}</link>"
        f"\n{pad}<description>{escape(_description(paper=paper, kind=kind))}</description>"
        f'\n{pad}<guid isPermaLink="false">oai:arXiv.org:{paper.versioned_id}</guid>'
        f"{categories}\n{pad}<pubDate>{format_datetime(midnight(day=day))}</pubDate>"
        f"\n{pad}<arxiv:announce_type>{kind}</arxiv:announce_type>"
        f"\n{pad}<dc:rights>{escape(paper.rights)}</dc:rights>{_extras(paper=paper, indent=pad)}"
        f"\n{pad}<dc:creator>{escape(', '.join(paper.authors))}</dc:creator>\n    </item>\n"
    )


def rss(*, query: str, day: date, listing: Listing, title: str | None = None) -> str:
    """The RSS 2.0 feed /rss/<query> for `day` (an empty listing: the weekend feed)."""
    feed_url = f"http://rss.arxiv.org/rss/{query}"
    items = "".join(_rss_item(paper=p, kind=k, day=day) for p, k in listing)
    return (
        f"<?xml version='1.0' encoding='UTF-8'?>\n<rss {_RSS_NS}>\n  <channel>"
        f"\n    <title>{escape(title or query + ' updates on arXiv.org')}</title>"
        f"\n    <link>{escape(feed_url)}</link>"
        f"\n    <description>{escape(query)} updates on the arXiv.org e-print archive."
        "</description>"
        f'\n    <atom:link href={quoteattr(feed_url)} rel="self" type="application/rss+xml"/>'
        "\n    <docs>http://www.rssboard.org/rss-specification</docs>"
        "\n    <language>en-us</language>"
        f"\n    <lastBuildDate>{format_datetime(built_at(day=day))}</lastBuildDate>"
        "\n    <managingEditor>rss-help@arxiv.org</managingEditor>"
        f"\n    <pubDate>{format_datetime(midnight(day=day))}</pubDate>"
        "\n    <skipDays>\n      <day>Saturday</day>\n      <day>Sunday</day>\n    </skipDays>\n"
        f"{items}  </channel>\n</rss>\n"
    )


def _atom_entry(*, paper: Announcement, kind: str, day: date) -> str:
    """One <entry> of the Atom feed."""
    pad = " " * 4
    categories = "".join(f"\n{pad}<category term={quoteattr(c)}/>" for c in paper.categories)
    return (
        f"  <entry>\n{pad}<id>oai:arXiv.org:{paper.versioned_id}</id>"
        f"\n{pad}<title>{escape(paper.title)}</title>"
        f"\n{pad}<updated>{built_at(day=day).isoformat()}</updated>"
        f'\n{pad}<link href="https://arxiv.org/abs/{paper.arxiv_id}" rel="alternate"'
        ' type="text/html"/>'
        f"\n{pad}<summary>{escape(_description(paper=paper, kind=kind))}</summary>{categories}"
        f"\n{pad}<published>{midnight(day=day).isoformat()}</published>"
        f"\n{pad}<arxiv:announce_type>{kind}</arxiv:announce_type>"
        f"\n{pad}<dc:rights>{escape(paper.rights)}</dc:rights>{_extras(paper=paper, indent=pad)}"
        f"\n{pad}<dc:creator>{escape(', '.join(paper.authors))}</dc:creator>\n  </entry>\n"
    )


def atom(*, query: str, day: date, listing: Listing, title: str | None = None) -> str:
    """The Atom feed /atom/<query> for `day`."""
    feed_url = f"http://rss.arxiv.org/atom/{query}"
    entries = "".join(_atom_entry(paper=p, kind=k, day=day) for p, k in listing)
    return (
        f"<?xml version='1.0' encoding='UTF-8'?>\n<feed {_ATOM_NS}>"
        f"\n  <id>{escape(feed_url)}</id>"
        f"\n  <title>{escape(title or query + ' updates on arXiv.org')}</title>"
        f"\n  <updated>{built_at(day=day).isoformat()}</updated>"
        f'\n  <link href={quoteattr(feed_url)} rel="self" type="application/atom+xml"/>'
        f"\n  <subtitle>{escape(query)} updates on the arXiv.org e-print archive.</subtitle>\n"
        f"{entries}</feed>\n"
    )


def api_error(*, query: str, summary: str) -> str:
    """The Atom feed the API answers in place of results when it cannot run a query (arXiv's
    API user manual, "Errors"): one entry titled Error, its id under arxiv.org/api/errors, the
    reason in its summary, and totalResults 1."""
    slug = "_".join(summary.lower().split())
    where = escape(f"http://arxiv.org/api/errors#{quote(slug, safe='._-')}")
    stamp = "2024-09-02T00:00:00-04:00"
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"'
        ' xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
        f"\n  <link href={quoteattr('http://arxiv.org/api/query?' + query)}"
        ' rel="self" type="application/atom+xml"/>'
        f"\n  <title>ArXiv Query: {escape(query)}</title>"
        "\n  <id>http://arxiv.org/api/fake-error</id>"
        f"\n  <updated>{stamp}</updated>"
        "\n  <opensearch:totalResults>1</opensearch:totalResults>"
        "\n  <opensearch:startIndex>0</opensearch:startIndex>"
        "\n  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>"
        f"\n  <entry>\n    <id>{where}</id>\n    <title>Error</title>"
        f"\n    <summary>{escape(summary)}</summary>\n    <updated>{stamp}</updated>"
        f'\n    <link href="{where}" rel="alternate" type="text/html"/>'
        "\n    <author>\n      <name>arXiv api core</name>\n    </author>\n  </entry>\n</feed>\n"
    )


def feed_error_title(*, query: str) -> str:
    """The title of the empty feed an unknown category gets; clients check for "Feed error
    for query" (zotero-arxiv-daily's retriever does), which is all that is known of its shape."""
    return f"Feed error for query: {query}"


def truncated(*, body: str) -> bytes:
    """The feed cut off inside its first item or entry (a dropped connection's bytes)."""
    data = body.encode("utf-8")
    for marker in (b"<item>", b"<entry>"):
        at = data.find(marker)
        if at >= 0:
            return data[: at + len(marker) + 40]
    return data[: len(data) // 2]


def malformed(*, body: str) -> bytes:
    """The feed with one closing tag dropped and a raw ampersand: not well-formed XML."""
    broken = body.replace("</title>", "", 2).replace("updates on", "updates & on", 1)
    return broken.encode("utf-8")
