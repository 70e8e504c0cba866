"""The failing link's notice to its channel: when it is tried again (by itself, soon for a
passing failure, later for a key to fix), and what an admin does about it."""

from __future__ import annotations

from bot.messages import as_plain
from bot.wording import zotero_notices


def test_the_notice_says_it_is_tried_again_by_itself_not_when() -> None:
    said = as_plain(message=zotero_notices.failing(library="groups/123", reason="key revoked"))
    assert "Zotero sync with groups/123 has stopped working" in said
    assert "Why: key revoked" in said
    assert "It is tried again by itself" in said and "daily" not in said
    assert (
        "/paperclub watch zotero connect" in said and "/paperclub watch zotero disconnect" in said
    )
