"""The exactly-once delivery loop on its own: which attempts are retried, when history is
searched, and what error is left for the poster when nothing is certain."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.domain import Paper, PaperCard, PaperStatus, VoteCount
from bot.ports import ChatError
from bot.services.delivery import POST_ATTEMPTS, post_paper
from tests.services.conftest import key
from tests.services.memory_chat import MemoryChat

C1 = key("C1")


def _card(*, post_id: int = 7) -> PaperCard:
    """A daily post's card; what it shows does not matter to the loop."""
    paper = Paper(
        id=1,
        title="A paper",
        abstract="Its abstract.",
        authors=("A. Author",),
        url=None,
        arxiv_id=None,
        doi=None,
        source="test",
        added_by=None,
        added_at=datetime(2026, 1, 1, tzinfo=UTC),
        position=1,
        status=PaperStatus.POSTED,
    )
    return PaperCard(
        paper=paper, post_id=post_id, local_date=date(2026, 1, 5), votes=VoteCount(), remaining=3
    )


def test_a_first_attempt_that_posts_is_not_looked_for(chat: MemoryChat) -> None:
    posted = post_paper(chat=chat, channel=C1, card=_card())
    assert chat.count("C1") == 1 and chat.lookups == 0 and chat.pauses == []
    assert posted == chat.find_post(channel=C1, post_id=7, since=None)


def test_a_refusal_is_raised_at_once_as_posted_nothing(chat: MemoryChat) -> None:
    chat.fail_next(code="channel_not_found", posted_nothing=True)
    with pytest.raises(ChatError) as raised:
        post_paper(chat=chat, channel=C1, card=_card())
    assert raised.value.code == "channel_not_found" and raised.value.posted_nothing
    assert chat.lookups == 0 and chat.pauses == [] and chat.count("C1") == 0


def test_a_maybe_posted_attempt_that_landed_is_found_not_sent_again(chat: MemoryChat) -> None:
    chat.fail_next(code="http_503", posted_nothing=False, after_effect=True)
    posted = post_paper(chat=chat, channel=C1, card=_card())
    assert chat.count("C1") == 1 and chat.lookups == 1 and chat.pauses == [1.0]
    assert posted == chat.find_post(channel=C1, post_id=7, since=None)


def test_a_maybe_posted_attempt_that_did_not_land_is_tried_again(chat: MemoryChat) -> None:
    chat.fail_next(code="connection_error", posted_nothing=False, times=POST_ATTEMPTS - 1)
    post_paper(chat=chat, channel=C1, card=_card())
    assert chat.count("C1") == 1
    assert chat.lookups == POST_ATTEMPTS - 1 and chat.pauses == [1.0, 2.0]


def test_every_attempt_unknown_leaves_the_outcome_unknown(chat: MemoryChat) -> None:
    chat.fail_next(code="connection_error", posted_nothing=False, times=POST_ATTEMPTS)
    with pytest.raises(ChatError) as raised:
        post_paper(chat=chat, channel=C1, card=_card())
    assert raised.value.code == "connection_error" and not raised.value.posted_nothing
    # No look-up after the last attempt: whoever takes the claim over looks first.
    assert chat.lookups == POST_ATTEMPTS - 1 and chat.count("C1") == 0


def test_history_that_cannot_be_read_keeps_the_outcome_unknown(chat: MemoryChat) -> None:
    # The look-up's own error is a clear refusal to read, yet the post may have landed.
    chat.fail_next(code="http_500", posted_nothing=False, after_effect=True)
    chat.fail_lookups(code="ratelimited")
    with pytest.raises(ChatError) as raised:
        post_paper(chat=chat, channel=C1, card=_card())
    assert raised.value.code == "ratelimited" and not raised.value.posted_nothing
    assert chat.count("C1") == 1


def test_a_refusal_after_an_unknown_attempt_is_a_refusal(chat: MemoryChat) -> None:
    chat.fail_next(code="connection_error", posted_nothing=False)
    chat.fail_next(code="not_in_channel", posted_nothing=True)
    with pytest.raises(ChatError) as raised:
        post_paper(chat=chat, channel=C1, card=_card())
    assert raised.value.code == "not_in_channel" and raised.value.posted_nothing
    assert chat.lookups == 1 and chat.count("C1") == 0
