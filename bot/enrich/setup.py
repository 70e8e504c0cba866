"""The enrichment sources as the settings configure them, with their answers cached in the
archive (so a second run, or another replica, asks nothing twice)."""

from __future__ import annotations

from bot.config.settings import Settings
from bot.enrich.fetch import Fetcher
from bot.enrich.sources import Sources
from bot.outbound.agent import PRODUCT as PRODUCT  # re-exported: the tests name it here
from bot.outbound.agent import user_agent
from bot.ports import Clock, Store, UnitOfWork


class StoreCache:
    """fetch.Cache over the archive's lookup_cache table."""

    def __init__(self, *, uow: UnitOfWork[Store], clock: Clock) -> None:
        """Keep answers through `uow`, stamped with `clock`."""
        self.uow, self.clock = uow, clock

    def get(self, *, key: str) -> tuple[int, str] | None:
        """A kept answer."""
        with self.uow(write=False) as store:
            return store.cached_answer(key=key)

    def put(self, *, key: str, url: str, status: int, body: str) -> None:
        """Keep an answer."""
        with self.uow() as store:
            store.keep_answer(key=key, url=url, status=status, body=body, now=self.clock.now())


def make_sources(*, settings: Settings, uow: UnitOfWork[Store], clock: Clock) -> Sources:
    """arXiv and Crossref where the settings say, paced, cached, with our User-Agent."""
    fetcher = Fetcher(
        user_agent=user_agent(contact=settings.contact),
        timeout=settings.lookup_timeout,
        cache=StoreCache(uow=uow, clock=clock),
    )
    return Sources(
        fetcher=fetcher,
        arxiv_url=settings.arxiv_api_url,
        crossref_url=settings.crossref_api_url,
        contact=settings.contact,
    )
