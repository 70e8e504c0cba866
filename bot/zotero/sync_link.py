"""A link's sync state: what a failure makes of it (when to try again, whether the channel is
owed a report), what a success clears, and the re-read that keeps a sync from overwriting an
admin's change made meanwhile (a pause, a new key, a disconnect).

Failures are of three kinds. One a person must mend (a revoked key, a key that may not do this,
a source collection deleted, a key no secret opens): tried again daily, reported at once, once
a run. A server asking to wait (429 or 503 with Retry-After, a Backoff): come back then, not a
failure and never reported. Anything else (no answer, 5xx, an odd reply): a growing backoff,
reported once it has lasted REPORT_AFTER.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.domain import ChannelKey
from bot.ports.zotero import ZoteroLink, ZoteroStore
from bot.sealing import UnreadableToken
from bot.zotero.errors import AccessDenied, KeyRevoked, Missing, ZoteroBusy, ZoteroError

FIX_FIRST = timedelta(days=1)  # a failure a person must mend is tried daily meanwhile
BACKOFF_FIRST = timedelta(minutes=5)  # after the first transient failure; doubled each time
BACKOFF_MAX = timedelta(hours=6)
REPORT_AFTER = timedelta(days=1)  # a transient failure worth telling once it lasts this long
ERROR_MAX = 500  # characters of last_error kept

REVOKED = "Zotero no longer accepts the API key (revoked or deleted): connect a new key"
DENIED = "the API key may not do this in the library (read, or write for the destination)"
MISSING = "the source collection is no longer in Zotero: connect again from another"
UNREADABLE = "the stored API key cannot be opened (PAPERCLUB_SECRET_KEY changed): connect again"
UNEXPECTED = "the sync failed unexpectedly (the bot's log says why); it is tried again"


@dataclass(frozen=True, slots=True)
class LinkFailure:
    """A link failing, owed a report to the channel's admins (the first of this run): its
    channel, its library ("groups/123") and why, in words for them."""

    channel: ChannelKey
    library: str
    reason: str


class LinkChanged(Exception):
    """The link was disconnected or connected anew (another library or key) during the pass:
    what this pass planned for the old one is not written into the new one's state."""


def current(*, store: ZoteroStore, link: ZoteroLink) -> ZoteroLink:
    """The link as stored now, when it is still the one this pass works for; LinkChanged
    otherwise. Fields an admin sets (paused, source, into) are taken from it."""
    now = store.zotero_link(channel=link.channel)
    same = (
        now is not None
        and now.library == link.library
        and now.sealed_key == link.sealed_key
        and now.connected_at == link.connected_at
    )
    if now is None or not same:
        raise LinkChanged(str(link.channel))
    return now


def going(*, store: ZoteroStore, link: ZoteroLink) -> ZoteroLink:
    """`current`, and LinkChanged when the link was paused meanwhile: a pass asks before each
    page of posts and each create, so a pause or a disconnect stops a long pass."""
    now = current(store=store, link=link)
    if now.paused:
        raise LinkChanged(f"{link.channel} paused")
    return now


def keep(*, store: ZoteroStore, link: ZoteroLink) -> None:
    """Save the sync's part of `link` (store.save_zotero_sync: nothing an admin sets), and
    LinkChanged when the stored link is no longer this one."""
    if not store.save_zotero_sync(link=link):
        raise LinkChanged(str(link.channel))


def needs_person(*, error: Exception) -> str | None:
    """The reason to report for a failure only a person can mend; None for any other."""
    if isinstance(error, KeyRevoked):
        return REVOKED
    if isinstance(error, AccessDenied):
        return DENIED
    if isinstance(error, Missing):
        return MISSING
    if isinstance(error, UnreadableToken):
        return UNREADABLE
    return None


def failed(*, link: ZoteroLink, error: Exception, now: datetime) -> ZoteroLink:
    """The link after `error`: busy (retry_at only), or counted with its next try and reason."""
    if isinstance(error, ZoteroBusy):
        return replace(link, retry_at=now + timedelta(seconds=max(error.retry_in, 1.0)))
    reason = needs_person(error=error)
    if reason is None:
        wait = min(BACKOFF_FIRST * 2 ** min(link.failures, 16), BACKOFF_MAX)
        reason = (
            f"Zotero could not be reached or answered oddly: {error}"
            if isinstance(error, ZoteroError)
            else UNEXPECTED  # a bug or an odd reply: its details are for the log only
        )
    else:
        wait = FIX_FIRST
    return replace(
        link,
        failures=link.failures + 1,
        retry_at=now + wait,
        failing_since=link.failing_since or now,
        last_error=reason[:ERROR_MAX],
    )


def owed(*, link: ZoteroLink, error: Exception, now: datetime) -> bool:
    """Whether the failing `link` (as `failed` made it) is owed its run's report now."""
    if link.reported or isinstance(error, ZoteroBusy):
        return False
    if needs_person(error=error) is not None:
        return True
    return link.failing_since is not None and now - link.failing_since >= REPORT_AFTER


def succeeded(*, link: ZoteroLink, now: datetime) -> ZoteroLink:
    """The link after a whole pass: no failure, no wait, its next failure reported anew."""
    return replace(
        link,
        failures=0,
        retry_at=None,
        failing_since=None,
        last_error="",
        reported=False,
        synced_at=now,
    )
