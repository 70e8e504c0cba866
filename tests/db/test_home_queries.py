"""The App Home's store queries, on SQLite and PostgreSQL: a person's own votes and comments,
only in the channels asked for (never another workspace's), newest first, deleted ones left out."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from bot.db.database import Database
from bot.domain import ChannelKey, PaperDraft, Post, Schedule
from bot.services import importing

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
SCHEDULE = Schedule(post_time=time(9, 0), timezone="UTC", weekdays=frozenset(range(1, 8)))
HERE = ChannelKey(platform="slack", workspace="T1", channel="C1")
LEFT = ChannelKey(platform="slack", workspace="T1", channel="C2")  # a channel the person left
ELSEWHERE = ChannelKey(platform="slack", workspace="T2", channel="C1")  # same id, other team


def _posts(database: Database) -> dict[ChannelKey, list[Post]]:
    """Two posted papers in each channel, on two days."""
    drafts = [
        PaperDraft(title=f"Paper {n}", abstract=f"About {n}.", origin=f"t:{n}") for n in range(6)
    ]
    importing.import_drafts(uow=database, drafts=drafts, now=NOW)
    posts: dict[ChannelKey, list[Post]] = {}
    with database() as store:
        papers = iter(range(1, 7))  # the ids a fresh database gives the six papers
        for key in (HERE, LEFT, ELSEWHERE):
            channel = store.save_channel(key=key, schedule=SCHEDULE, private=False)
            for day in (date(2026, 1, 5), date(2026, 1, 6)):
                paper = store.paper(paper_id=next(papers))
                assert paper is not None
                post = store.claim_post(
                    channel=channel, local_date=day, paper_id=paper.id, owner="t", now=NOW
                )
                assert post is not None
                store.mark_posted(
                    post_id=post.id, message_id=f"{day.day}.{key.workspace}", permalink=None
                )
                posts.setdefault(key, []).append(post)
    return posts


def test_own_votes_and_comments_in_the_channels_asked_for(any_url: str) -> None:
    database = Database(url=any_url)
    try:
        posts = _posts(database)
        with database() as store:
            for n, (key, mine) in enumerate(posts.items()):
                for m, post in enumerate(mine):
                    at = NOW + timedelta(minutes=10 * n + m)
                    store.set_vote(
                        post_id=post.id, user="U1", value=1 if m else -1, source="button", now=at
                    )
                    store.set_vote(post_id=post.id, user="U2", value=1, source="button", now=at)
                    words = f"said {key.workspace}{key.channel}{m}"
                    store.add_comment(
                        post=post, user="U1", message_id=f"{n}{m}.1", text=words, now=at
                    )
            store.delete_comment(post=posts[HERE][0], message_id="00.1")
        with database(write=False) as store:
            votes = store.votes_by(user="U1", channels=[HERE], limit=5)
            said = store.comments_by(user="U1", channels=[HERE], limit=5)
            none = store.votes_by(user="U1", channels=[], limit=5)
            capped = store.comments_by(user="U1", channels=[HERE, LEFT, ELSEWHERE], limit=2)
        assert [(v.channel, v.title, v.local_date, v.value) for v in votes] == [
            (HERE, "Paper 1", date(2026, 1, 6), 1),
            (HERE, "Paper 0", date(2026, 1, 5), -1),
        ]
        assert votes[0].at > votes[1].at and votes[0].at.tzinfo is not None
        assert [(c.text, c.title, c.edited) for c in said] == [("said T1C11", "Paper 1", False)]
        assert none == []
        assert [c.channel for c in capped] == [ELSEWHERE, ELSEWHERE]  # newest first, two
    finally:
        database.dispose()
