"""The club as one Chat sees it (bot.services.club.Club.on): what an edge calls with the plain
values it read off a payload, after which it only renders the answer.

Rebuilding the scheduler after a command changed a schedule, and redrawing a post after its
votes changed, happen here, so no edge has to remember either. So does the answer when the
archive cannot take a click, a command or a form (ArchiveUnavailable: "not saved, try
again"). Reactions and thread messages let it through: the edge leaves such an event
unacknowledged, so that the platform delivers it again (Slack), or logs it (Discord).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.domain import ChannelKey, Schedule
from bot.messages import Message
from bot.ports import ArchiveUnavailable, Chat, Clock, PaperLookup, Store, UnitOfWork
from bot.ports.zotero_desk import ZoteroDesk
from bot.services import commands, comments, event_ids, home, post_card, posting, voting
from bot.services.clicks import Clicks
from bot.services.embedding import SemanticExtra
from bot.services.home import HomeView, ScheduleForm, Viewer
from bot.services.meeting_form import MeetingForms
from bot.services.posting import Poster
from bot.services.reply import Reply
from bot.services.telemetry import Telemetry
from bot.services.thread_event import ThreadEvent
from bot.services.web_links import Signer
from bot.wording import replies

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Room:
    """One Chat's view of the club: its poster, its admins and the reactions that vote."""

    uow: UnitOfWork[Store]
    clock: Clock
    lookup: PaperLookup
    defaults: Schedule
    reschedule: Callable[[], None]
    queue_redraw: Callable[[int], None]
    chat: Chat
    poster: Poster
    platform: str
    admins: tuple[str, ...]
    up: frozenset[str]
    down: frozenset[str]
    telemetry: Telemetry
    signer: Signer | None
    semantic_extra: SemanticExtra
    inline_redraw: bool = False
    # Asks for this platform's recent posts to be read back (bot.services.reconcile).
    wants_reconcile: Callable[[str], None] = lambda _platform: None
    # Wakes the reconciler for an ask already written (an admin's, for one channel).
    wake_reconcile: Callable[[], None] = lambda: None
    # Checks and seals Zotero keys; None without PAPERCLUB_SECRET_KEY.
    zotero: ZoteroDesk | None = None
    wake_zotero: Callable[[], None] = lambda: None  # a link connected, tested or resumed

    def reconcile_soon(self) -> None:
        """This Chat may have missed events (a new gateway session rather than a resume, a
        Socket Mode reconnect): its recent posts' reactions and threads are read back soon, in
        the background, once per channel however many replicas ask."""
        self.wants_reconcile(self.platform)

    # -- commands ------------------------------------------------------------------------------

    def invocation(self, *, channel: ChannelKey, user: str) -> commands.Invocation:
        """The command context: who typed in which channel, and what the bot answers with."""
        return commands.Invocation(
            uow=self.uow,
            chat=self.chat,
            poster=self.poster,
            channel=channel,
            user=user,
            admins=self.admins,
            defaults=self.defaults,
            now=self.clock.now(),
            lookup=self.lookup,
            telemetry=self.telemetry,
            semantic_extra=self.semantic_extra,
            signer=self.signer,
            zotero=self.zotero,
        )

    def _done(self, reply: Reply) -> Reply:
        """The reply, with the scheduler rebuilt when the command changed a schedule, and the
        reconciler woken when the command asked for a read-back, the Zotero sync when a link is
        ready for it."""
        if reply.reschedule:
            self.reschedule()
        if reply.reconcile:
            self.wake_reconcile()
        if reply.sync:
            self.wake_zotero()
        return reply

    @staticmethod
    def _saved(make: Callable[[], T]) -> T | Reply:
        """What `make` answers; "not saved, try again" when the archive could not take it
        (the cause is logged where it was raised, in bot/db)."""
        try:
            return make()
        except ArchiveUnavailable:
            return Reply(message=replies.NOT_SAVED)

    def command(self, *, channel: ChannelKey, user: str, text: str) -> Reply:
        """/paperclub `text`, typed by `user` in `channel`."""
        call = self.invocation(channel=channel, user=user)
        return self._done(self._saved(lambda: commands.handle(call=call, text=text)))

    def more_results(self, *, value: object, viewer: ChannelKey | None) -> Reply | None:
        """The next page a 'More results' button's value asks for, as `viewer` sees it; None
        when the value is stale or forged."""
        return commands.more_results(
            uow=self.uow,
            value=value,
            viewer=viewer,
            semantic_extra=self.semantic_extra,
            telemetry=self.telemetry,
        )

    @property
    def clicks(self) -> Clicks:
        """The buttons of trays and reminders, on this archive."""
        return Clicks(uow=self.uow, clock=self.clock, semantic_extra=self.semantic_extra)

    # -- votes ---------------------------------------------------------------------------------

    def _voted(self, outcome: voting.VoteOutcome) -> voting.VoteOutcome:
        """The outcome, with the post redrawn (queued, or at once) when its counts changed."""
        if outcome.changed and outcome.post_id is not None:
            if self.inline_redraw:
                post_card.redraw(
                    uow=self.uow,
                    post_id=outcome.post_id,
                    chat_of=lambda _p: self.chat,
                    semantic_extra=self.semantic_extra,
                )
            else:
                self.queue_redraw(outcome.post_id)
        return outcome

    def click(
        self,
        *,
        channel: ChannelKey,
        post_id: int,
        user: str,
        value: int,
        token: str,
        via: str = voting.BUTTON,
    ) -> voting.VoteOutcome:
        """A vote button (+1 or -1) pressed in `channel` (the platform's word for where, not
        the button's); `token` is unique per click on the platform (a redelivered click carries
        the same one); `via` names how, for the metrics. A click the archive could not take
        changes nothing and carries the "not saved" answer for the person."""
        try:
            outcome = voting.click(
                uow=self.uow,
                channel=channel,
                post_id=post_id,
                user=user,
                value=value,
                event_id=event_ids.click(post_id=post_id, user=user, token=token),
                now=self.clock.now(),
                telemetry=self.telemetry,
                via=via,
            )
        except ArchiveUnavailable:  # logged where it was raised (bot/db)
            return voting.VoteOutcome(post_id=None, changed=False, answer=replies.VOTE_NOT_SAVED)
        return self._voted(outcome)

    def react(
        self,
        *,
        channel: ChannelKey,
        message_id: str,
        user: str,
        reaction: str,
        added: bool,
        delivery: str | None = None,
        stamp: str | None = None,
        emoji: str | None = None,
    ) -> voting.VoteOutcome:
        """A reaction (by name: `+1`, `thumbsup::skin-tone-2`, 👍) added or removed on a
        message. `delivery`: the platform's event id; `stamp`: its time of the event; `emoji`:
        the reaction as the platform spells it, when neither is given (see event_ids)."""
        event_id, present = event_ids.reaction(
            delivery=delivery,
            added=added,
            stamp=stamp,
            message_id=message_id,
            user=user,
            emoji=emoji or reaction,
        )
        return self._voted(
            voting.react(
                uow=self.uow,
                channel=channel,
                message_id=message_id,
                user=user,
                reaction=reaction,
                added=added,
                event_id=event_id,
                now=self.clock.now(),
                telemetry=self.telemetry,
                up=self.up,
                down=self.down,
                present_key=present,
            )
        )

    # -- thread messages -----------------------------------------------------------------------

    def _message(self, *, kind: str, about: ThreadEvent) -> comments.ThreadMessage:
        """The thread message an event is about, with its dedupe id."""
        return comments.ThreadMessage(
            channel=about.channel,
            thread_id=about.thread_id,
            message_id=about.message_id,
            user=about.user,
            event_id=event_ids.thread_message(
                delivery=about.delivery, kind=kind, message_id=about.message_id, stamp=about.stamp
            ),
            now=self.clock.now(),
        )

    def reply(self, *, about: ThreadEvent, text: str) -> bool:
        """A reply in a thread of `about.channel` (kept when the thread is a daily post's)."""
        found = self._message(kind="message", about=about)
        return comments.reply(uow=self.uow, message=found, text=text, telemetry=self.telemetry)

    def edit(self, *, about: ThreadEvent, text: str) -> bool:
        """A thread message edited; `about.stamp` tells one edit of it from the next."""
        found = self._message(kind="edit", about=about)
        return comments.edit(uow=self.uow, message=found, text=text, telemetry=self.telemetry)

    def delete(self, *, about: ThreadEvent) -> bool:
        """A thread message deleted."""
        found = self._message(kind="delete", about=about)
        return comments.delete(uow=self.uow, message=found, telemetry=self.telemetry)

    # -- the Home ------------------------------------------------------------------------------

    def home(self, *, viewer: Viewer, notice: Message | None = None) -> HomeView:
        """A person's Home (with what their last action did, if any)."""
        return home.home(
            uow=self.uow,
            chat=self.chat,
            viewer=viewer,
            admins=self.admins,
            now=self.clock.now(),
            notice=notice,
        )

    def home_action(self, *, channel: ChannelKey, user: str, action: str) -> Reply | None:
        """A Home button's subcommand; None for an action that is no Home button."""
        call = self.invocation(channel=channel, user=user)
        reply = self._saved(lambda: home.act(call=call, action=action))
        return None if reply is None else self._done(reply)

    @property
    def meeting_forms(self) -> MeetingForms:
        """The Home's meeting form, on this archive."""
        return MeetingForms(invocation=self.invocation)

    def schedule_form(self, *, channel: ChannelKey, user: str) -> ScheduleForm | Reply:
        """The schedule form of a channel for an admin; the reason shown on the Home else."""
        return home.schedule_form(call=self.invocation(channel=channel, user=user))

    def read_form(
        self,
        *,
        channel: ChannelKey,
        user: str,
        time: str | None,
        zone: str | None,
        days: Sequence[str],
    ) -> str | dict[str, str]:
        """The `schedule` subcommand a submitted form stands for, or its errors by field."""
        call = self.invocation(channel=channel, user=user)
        return home.read_form(call=call, time=time, zone=zone, days=days)

    def save_schedule(self, *, channel: ChannelKey, user: str, command: str) -> Reply:
        """Apply a valid form (what read_form returned), shown on the Home."""
        call = self.invocation(channel=channel, user=user)
        return self._done(self._saved(lambda: home.save_schedule(call=call, command=command)))

    # -- posts ---------------------------------------------------------------------------------

    def post_today(self, *, channel: ChannelKey, force: bool = False) -> posting.PostResult:
        """Post a channel's paper of its local today now, if due (or forced)."""
        return posting.post_today(
            poster=self.poster, channel=channel, now=self.clock.now(), force=force
        )
