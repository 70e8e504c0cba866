"""The context every /paperclub subcommand runs in. Beside the commands package, not in it:
the subcommands' modules import it, and importing anything inside the package first runs
its __init__, which imports the table, which imports those modules (a cycle)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.domain import ChannelKey, Schedule
from bot.ports import Chat, PaperLookup, Store, UnitOfWork
from bot.ports.zotero_desk import ZoteroDesk
from bot.services.embedding import SemanticExtra
from bot.services.posting import Poster
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer


@dataclass(frozen=True, slots=True)
class Invocation:
    """Who typed the command, in which channel, and what the bot has to answer with."""

    uow: UnitOfWork[Store]
    chat: Chat
    poster: Poster
    channel: ChannelKey
    user: str
    admins: tuple[str, ...]
    defaults: Schedule
    now: datetime
    lookup: PaperLookup
    # Whoever keeps the numbers (a search's time), and the semantic extra (search, related,
    # the taste order, an added paper's vector).
    telemetry: Telemetry
    semantic_extra: SemanticExtra
    # Sign-in links to the web archive (`/paperclub web`); None: sign-in is off.
    signer: Signer | None = None
    # Checks and seals Zotero keys (`/paperclub watch zotero`); None: PAPERCLUB_SECRET_KEY is
    # unset, so no key could be kept.
    zotero: ZoteroDesk | None = None
