"""The App Home: what one person sees of the followed channels they are in, their own votes and
comments, admin buttons for admins only; its buttons and form run the slash command's own
subcommands."""

from __future__ import annotations

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.messages import Button, Buttons, message
from bot.services import comments, home
from bot.services.home import ScheduleForm, Viewer
from bot.services.reply import Reply
from bot.services.telemetry import Telemetry
from bot.wording import home as words
from bot.wording import replies
from tests.services.conftest import WEEKDAYS, follow, key, load_sample
from tests.services.memory_chat import MemoryChat
from tests.services.support import MONDAY, deliver, follow_key, in_thread, invocation, plain, vote

C1, C2 = key("C1"), key("C2")
ADMINS = ("UADMIN",)


def _home(database: Database, chat: MemoryChat, viewer: Viewer) -> tuple[home.HomeView, str]:
    """The viewer's Home an hour before Monday's post, and all of it as plain text."""
    view = home.home(uow=database, chat=chat, viewer=viewer, admins=ADMINS, now=MONDAY)
    return view, "\n".join(plain(section) for section in view.sections)


def _buttons(view: home.HomeView) -> list[Button]:
    """Every button on the Home, top to bottom."""
    return [
        button
        for section in view.sections
        for block in section.blocks
        if isinstance(block, Buttons)
        for button in block.buttons
    ]


def test_someone_in_no_followed_channel_is_told_how_to_start(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, "C1")
    view, said = _home(database, chat, Viewer(user="U1", channels=frozenset({C2})))
    assert words.NO_CHANNELS in view.sections and not view.admin
    assert "No votes yet" in said and "No comments yet" in said
    unknown, _ = _home(database, chat, Viewer(user="U1", channels=None))
    assert words.CHANNELS_UNKNOWN in unknown.sections


def test_a_member_sees_their_channels_schedule_and_next_papers(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    follow(database, "C2")
    follow(database, "C1")
    follow_key(database, key("C3", workspace="T2"))  # followed, but the viewer is not in it
    viewer = Viewer(user="U1", channels=frozenset({C1, C2, key("C9")}))
    assert [c.key for c in home.followed(uow=database, viewer=viewer)] == [C1, C2]
    view, said = _home(database, chat, viewer)
    assert "#C1 · 09:00 Europe/Berlin, weekdays (Mon–Fri) · next paper today at 09:00" in said
    assert "#C3" not in said and "#C9" not in said
    assert said.count("more in the queue.") == 2
    assert not view.admin and _buttons(view) == []


def test_an_admin_gets_buttons_and_a_paused_channel_offers_resume(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, "C1")
    call = invocation(database, chat, C1, user="UADMIN")
    home.act(call=call, action="home_pause")
    view, said = _home(database, chat, Viewer(user="UADMIN", channels=frozenset({C1})))
    assert view.admin and "paused" in said and words.QUEUE_EMPTY in said
    assert [(b.action, b.value) for b in _buttons(view)] == [
        ("home_resume", "C1"),
        ("home_skip", "C1"),
        ("home_post_now", "C1"),
        (home.SCHEDULE_ACTION, "C1"),
        (home.MEETING_ACTION, "C1"),
    ]


def test_own_votes_and_comments_show_nobody_elses(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    post, card = deliver(database, chat, follow(database, "C1"))
    vote(database, post, user="U1", value=1, event="v1", now=MONDAY)
    vote(database, post, user="U2", value=-1, event="v2", now=MONDAY)
    long = "<!channel> 🦘 " + "x" * 10_000
    comments.reply(
        telemetry=Telemetry(), uow=database, message=in_thread(post, user="U1"), text=long
    )
    _, said = _home(database, chat, Viewer(user="U1", channels=frozenset({C1})))
    assert f"• 👍 {card.paper.title} · #C1, Mon 5 Jan" in said and "• 👎" not in said
    [shown] = [line for line in said.splitlines() if line.startswith("• “<!channel>")]
    assert len(shown) < words.COMMENT_SHOWN + len(card.paper.title) + 40 and "…”" in shown
    _, theirs = _home(database, chat, Viewer(user="U2", channels=frozenset({C1})))
    assert f"• 👎 {card.paper.title}" in theirs and "No comments yet" in theirs


def test_a_notice_tops_the_home_and_many_channels_are_cut(
    database: Database, chat: MemoryChat
) -> None:
    channels = [follow(database, f"C{n:02}") for n in range(home.CHANNELS_SHOWN + 2)]
    notice = message("Done.")
    view = home.home(
        uow=database,
        chat=chat,
        viewer=Viewer(user="U1", channels=frozenset(channels)),
        admins=ADMINS,
        now=MONDAY,
        notice=notice,
    )
    assert plain(view.sections[1]) == "Done."
    said = "\n".join(plain(s) for s in view.sections)
    assert "… and 2 more channels; /paperclub queue in each shows its queue." in said
    assert "#C13" not in said and "#C11" in said


def test_buttons_run_the_subcommands_with_the_admin_check(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, "C1")
    assert home.act(call=invocation(database, chat, C1), action="home_unknown") is None
    refused = home.act(call=invocation(database, chat, C1, user="U1"), action="home_skip")
    assert refused == Reply(message=words.notice(channel=C1, said=replies.refusal(command="skip")))
    paused = home.act(call=invocation(database, chat, C1, user="UADMIN"), action="home_pause")
    assert paused is not None and paused.reschedule
    assert paused.message == words.notice(channel=C1, said=replies.PAUSED)
    assert plain(paused.message).startswith("In #C1:")


def _form(database: Database, chat: MemoryChat, user: str, channel: ChannelKey = C1) -> object:
    """The schedule form `user` opens for `channel`, or the reason they may not."""
    return home.schedule_form(call=invocation(database, chat, channel, user=user))


def test_the_schedule_form_is_for_admins_of_followed_channels(
    database: Database, chat: MemoryChat
) -> None:
    follow(database, "C1")
    form = _form(database, chat, "UADMIN")
    assert isinstance(form, ScheduleForm) and form.current == WEEKDAYS
    assert (
        form.zones[0] == "UTC" and "Europe/Berlin" in form.zones and "Etc/GMT+5" not in form.zones
    )
    for user, channel, why in (("U1", C1, words.NOT_ADMIN), ("UADMIN", C2, words.NOT_FOLLOWED)):
        refused = _form(database, chat, user, channel)
        assert isinstance(refused, Reply) and refused.message == words.notice(
            channel=channel, said=message(why)
        )


def test_a_submitted_form_is_read_field_by_field(database: Database, chat: MemoryChat) -> None:
    follow(database, "C1")
    call = invocation(database, chat, C1, user="UADMIN")

    def read(time: str | None, zone: str | None, days: list[str]) -> str | dict[str, str]:
        return home.read_form(call=call, time=time, zone=zone, days=days)

    assert read(None, None, []) == {
        "time": words.NEED_TIME,
        "zone": words.NEED_ZONE,
        "days": words.NEED_DAYS,
    }
    assert read("9h", "Mars/Base", ["someday"]) == {
        "time": words.BAD_TIME,
        "zone": words.BAD_ZONE,
        "days": words.NEED_DAYS,
    }
    command = read("09:30", "Europe/Berlin", ["fri", "mon"])
    assert command == "schedule 09:30 Europe/Berlin mon,fri"
    saved = home.save_schedule(call=call, command=str(command))
    assert (
        saved.reschedule
        and "Schedule changed: Paper Club posts at 09:30 Europe/Berlin, Mon, Fri"
        in (plain(saved.message))
    )
    stranger = invocation(database, chat, C1, user="U1")
    assert home.read_form(call=stranger, time="09:30", zone="UTC", days=["mon"]) == {
        "time": words.NOT_ADMIN
    }
