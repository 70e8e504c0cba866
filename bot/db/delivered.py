"""The memo of delivered daily posts that one process keeps across its units of work."""

from __future__ import annotations

import threading

from bot.domain import ChannelKey, Post, PostState


class DeliveredPosts:
    """Delivered daily posts by channel and message id and by post id, remembered by one
    process.

    Every click asks for its post, and every reaction and thread reply which post its message
    is. Once a post is delivered (POSTED, its message id recorded) nothing changes it again,
    so the answer is kept; a post not delivered yet, or a message that is no post, is asked
    again each time, since its delivery may be recorded a moment later.
    """

    LIMIT = 4096  # a few years of daily posts in a few hundred channels

    def __init__(self) -> None:
        """Nothing known yet."""
        self._posts: dict[tuple[ChannelKey, str], Post] = {}
        self._by_id: dict[int, Post] = {}
        self._lock = threading.Lock()

    def get(self, *, channel: ChannelKey, message_id: str) -> Post | None:
        """The delivered post that is this message, when known."""
        return self._posts.get((channel, message_id))

    def by_id(self, *, post_id: int) -> Post | None:
        """The delivered post with this id, when known."""
        return self._by_id.get(post_id)

    def keep(self, *, post: Post) -> None:
        """Remember a delivered post (forgetting everything when full: cheap and rare)."""
        if post.message_id is None or post.state is not PostState.POSTED:
            return
        with self._lock:
            if len(self._posts) >= self.LIMIT:
                self._posts.clear()
                self._by_id.clear()
            self._posts[(post.channel, post.message_id)] = post
            self._by_id[post.id] = post
