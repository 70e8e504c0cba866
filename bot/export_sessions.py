"""Pure renderers of the club's memory of its meetings: `sessions-json` and `sessions-csv`, the
export's formats beside the papers' ones (a papers export stays a list of papers, the shape
users' scripts read).

Each session carries its members' ratings after it and the links added to it (notes,
slides): in sessions-json each rating, in sessions-csv their counts."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from bot.ingest.csvfmt import guard_cell
from bot.meetings.ballots import Rsvp
from bot.ports.session_history import SessionHistory

SESSION_FORMATS = ("sessions-json", "sessions-csv")


def votes_value(*, votes: float | None) -> int | float | None:
    """Votes as a number: whole ones as an integer (votes are weights summed: 1, ½ or 0 a
    voter, so a fraction is a half)."""
    if votes is None:
        return None
    return int(votes) if votes == int(votes) else votes


def session_dict(*, memory: SessionHistory) -> dict[str, Any]:
    """The JSON object of one session; this shape is a promise to users' scripts."""
    record, session, poll, presenter = memory.record, memory.record.session, memory.poll, None
    if memory.presenter is not None:
        presenter = {"user": memory.presenter.user, "how": memory.presenter.how}
    chosen = memory.paper
    return {
        "id": record.id,
        "channel": str(record.channel),
        "private": memory.private,
        "start": session.start.isoformat(),
        "end": session.end.isoformat(),
        "zone": session.zone,
        "place": session.place,
        "one_off": session.one_off,
        "cancelled": record.cancelled,
        "sequence": record.sequence,
        "paper": None if chosen is None else {"id": chosen.paper_id, "title": chosen.title},
        "presenter": presenter,
        "poll": None
        if poll is None
        else {
            "mode": poll.mode,
            "opened_at": poll.opened_at.isoformat(),
            "closed_at": poll.closed_at.isoformat() if poll.closed_at else None,
            "slate": [
                {"paper_id": p.paper_id, "title": p.title, "votes": votes_value(votes=p.votes)}
                for p in poll.slate
            ],
            "winner": chosen.paper_id if chosen is not None else None,
        },
        "rsvps": [{"user": user, "answer": answer.value} for user, answer in memory.rsvps],
        "ratings": [
            {"user": user, "worth": said.worth, "discussion": said.discussion}
            for user, said in memory.ratings
        ],
        "links": list(memory.links),
    }


def to_json(*, sessions: Sequence[SessionHistory]) -> str:
    """A JSON list, one object per session, earliest first."""
    listed = [session_dict(memory=m) for m in sessions]
    return json.dumps(listed, ensure_ascii=False, indent=2) + "\n"


CSV_COLUMNS = (
    "id",
    "channel",
    "private",
    "start",
    "end",
    "zone",
    "place",
    "one_off",
    "cancelled",
    "sequence",
    "paper_id",
    "paper_title",
    "presenter",
    "presented_as",
    "poll_mode",
    "poll_papers",
    "poll_votes",
    "going",
    "maybe",
    "no",
    "worth",
    "not_worth",
    "lively",
    "quiet",
    "links",
)


def _flag(*, value: bool) -> str:
    """A yes/no cell as the papers' CSV writes it."""
    return "true" if value else "false"


def _row(*, memory: SessionHistory) -> list[str | int]:
    """One session's cells, in CSV_COLUMNS' order."""
    record, session, poll, chosen = memory.record, memory.record.session, memory.poll, memory.paper
    answered = {answer: [u for u, a in memory.rsvps if a is answer] for answer in Rsvp}
    return [
        record.id,
        str(record.channel),
        _flag(value=memory.private),
        session.start.isoformat(),
        session.end.isoformat(),
        session.zone,
        session.place,
        _flag(value=session.one_off),
        _flag(value=record.cancelled),
        record.sequence,
        chosen.paper_id if chosen is not None else "",
        chosen.title if chosen is not None else "",
        memory.presenter.user if memory.presenter is not None else "",
        memory.presenter.how if memory.presenter is not None else "",
        (poll.mode or "") if poll is not None else "",
        " ".join(str(p.paper_id) for p in poll.slate) if poll is not None else "",
        " ".join(str(votes_value(votes=p.votes)) for p in poll.slate)
        if poll is not None and poll.mode is not None
        else "",
        *(" ".join(answered[answer]) for answer in (Rsvp.GOING, Rsvp.MAYBE, Rsvp.NO)),
        *_rating_counts(memory=memory),
        " ".join(memory.links),
    ]


def _rating_counts(*, memory: SessionHistory) -> list[int]:
    """How many said worth it, not really, good discussion and quiet."""
    said = [rating for _user, rating in memory.ratings]
    return [
        sum(1 for r in said if r.worth is True),
        sum(1 for r in said if r.worth is False),
        sum(1 for r in said if r.discussion is True),
        sum(1 for r in said if r.discussion is False),
    ]


def to_csv(*, sessions: Sequence[SessionHistory]) -> str:
    """One row per session. A poll's papers are their ids, space-separated in the order shown,
    with their votes in the same order in `poll_votes` (empty while open); the answers are
    user ids, space-separated. A text cell a spreadsheet would run as a formula gets a
    leading apostrophe, as the papers' CSV does (places and titles come from anyone)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for memory in sessions:
        cells = _row(memory=memory)
        writer.writerow([guard_cell(text=c) if isinstance(c, str) else c for c in cells])
    return out.getvalue()


def render(*, sessions: Sequence[SessionHistory], fmt: str) -> str:
    """Render sessions in one of SESSION_FORMATS."""
    return to_json(sessions=sessions) if fmt == "sessions-json" else to_csv(sessions=sessions)
