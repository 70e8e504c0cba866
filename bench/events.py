"""Event ingestion: votes and thread comments through the full Bolt dispatch and the database,
next to a bare Bolt app whose listeners only ack (the framework's ceiling).

    python -m bench.events [--events N] [--repeats R]

Each run builds the real bot (build_slack_bot against a local fake Slack, a copy of a migrated
SQLite file in WAL mode), posts today's paper, and calls `app.dispatch(BoltRequest(...,
mode="socket_mode"))` for a fixed mix of deliveries, as the Socket Mode adapter does per
envelope, minus the WebSocket; the same mix then goes through the bare app. Afterwards the
stored votes and comments are compared with those computed independently from the mix.
"""

from __future__ import annotations

import argparse
import copy
import gc
import random
import re
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from datetime import time as clock_time
from pathlib import Path
from typing import Any

from slack_bolt import Ack, App, BoltRequest
from sqlalchemy import text

from bot import ingest
from bot.config import Settings
from bot.db.migrate import upgrade_url
from bot.db.store import Database
from bot.run_slack import build_slack_bot
from bot.services import importing, posting
from bot.slack import ids
from bot.slack.chat import make_client
from bot.slack.listeners.commands import COMMAND
from tests import fakeslack as slack  # a local fake Slack, and payloads shaped like Slack's

SAMPLE = Path(__file__).resolve().parents[1] / "bot" / "data" / "reading-list.txt"
CHANNEL = "C0001"
MONDAY_9 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)  # 09:00 in Berlin: the daily post is due
EPOCH = int(MONDAY_9.timestamp())  # message ts and action_ts of the mix count up from here
USERS = tuple(f"U{n:04d}" for n in range(200))
TONES = ("", "::skin-tone-2", "::skin-tone-3", "::skin-tone-4", "::skin-tone-5", "::skin-tone-6")
REACTIONS = ("+1", "thumbsup", "-1", "thumbsdown", "tada", "eyes")  # the last two are no votes
KINDS, WEIGHTS = ("click", "react", "reply", "change"), (50, 20, 25, 5)
OTHER_TS = f"{EPOCH - 600}.000100"  # a message in the channel that is no daily post
REDELIVERED = 0.10  # share of deliveries that repeat an earlier one (retries, duplicates)
# Ours ingests ~150 events/s on the 2-core reference machine: 1,000 a run keeps 5 runs under 60 s.
DEFAULT_EVENTS = 1000
Headers = dict[str, str | Sequence[str]]  # what BoltRequest takes
Request = tuple[dict[str, Any], Headers | None]  # body, headers


@dataclass(frozen=True, slots=True)
class Action:
    """One delivery of the mix, independent of any payload shape."""

    kind: str  # click | react | unreact | reply | edit | delete | again
    n: int  # sequence number: makes event ids, action_ts and message ts unique
    user: str = ""
    value: int = 0  # click: +1 or -1
    name: str = ""  # reaction name
    ts: str = ""  # reply/edit/delete: the comment; reactions: the item ("" = the daily post)
    text: str = ""
    old_text: str = ""
    ref: int = -1  # again: the index of the delivery repeated


@dataclass
class Expected:
    """The final state the mix must leave, from the rules of issue 4, not from the bot's code."""

    votes: dict[str, tuple[int, str]] = field(default_factory=dict)  # user -> (value, source)
    comments: dict[str, tuple[str, bool]] = field(default_factory=dict)  # ts -> (text, deleted)

    def apply(self, *, action: Action) -> None:
        """One delivery; a redelivery (`again`) changes nothing."""
        vote, base = self.votes.get(action.user), action.name.split("::", 1)[0]
        value = 1 if base in ("+1", "thumbsup") else -1 if base in ("-1", "thumbsdown") else 0
        if action.kind == "click" and vote is not None and vote[0] == action.value:
            del self.votes[action.user]  # the same button again withdraws the vote
        elif action.kind == "click":
            self.votes[action.user] = (action.value, "button")
        elif action.kind == "react" and value and not action.ts:
            self.votes[action.user] = (value, f"reaction:{base}")  # the latest action wins
        elif action.kind == "unreact" and not action.ts and vote and vote[1] == f"reaction:{base}":
            del self.votes[action.user]  # only the reaction that set the vote withdraws it
        elif action.kind == "reply":
            self.comments.setdefault(action.ts, (action.text, False))  # a late original loses
        elif action.kind == "edit" and not self.comments.get(action.ts, ("", False))[1]:
            self.comments[action.ts] = (action.text, False)
        elif action.kind == "delete":
            self.comments[action.ts] = ("", True)


def make_mix(*, total: int, seed: int = 4) -> list[Action]:
    """A deterministic mix: 50% clicks, 20% reactions, 25% replies, 5% edits/deletes (some
    overtaking their reply), and about 10% redeliveries of earlier deliveries."""
    rng = random.Random(seed)
    tone = {user: rng.choice(TONES) for user in USERS}
    reactions: dict[str, set[str]] = {user: set() for user in USERS}
    live: dict[str, tuple[str, str]] = {}  # ts -> (user, text) of replies not deleted
    deferred: list[tuple[int, Action]] = []  # replies held back so that their change comes first
    out: list[Action] = []
    fresh: list[int] = []  # indices of first deliveries, which a redelivery may repeat
    while len(out) < total:
        n = len(out) + len(deferred)  # every action made so far, so unique
        if due := [item for item in deferred if item[0] <= len(out)]:
            deferred.remove(due[0])
            fresh.append(len(out))
            out.append(due[0][1])
            continue
        if fresh and rng.random() < REDELIVERED:
            out.append(Action("again", n, ref=rng.choice(fresh)))
            continue
        kind, user = rng.choices(KINDS, WEIGHTS)[0], rng.choice(USERS)
        action: Action | None = None
        if kind == "click":
            action = Action("click", n, user, value=rng.choice((1, 1, -1)))
        elif kind == "react" and rng.random() < 0.1:  # reactions on other messages are ignored
            action = Action("react", n, user, name=rng.choice(REACTIONS), ts=OTHER_TS)
        elif kind == "react" and reactions[user] and rng.random() < 0.4:
            name = rng.choice(sorted(reactions[user]))
            reactions[user].discard(name)
            action = Action("unreact", n, user, name=name)
        elif kind == "react":
            base = rng.choice(REACTIONS)
            name = base + (tone[user] if base in ("+1", "-1") else "")
            if name not in reactions[user]:  # Slack sends no second reaction_added for one emoji
                reactions[user].add(name)
                action = Action("react", n, user, name=name)
        elif kind == "reply" or not live:
            action = Action("reply", n, user, ts=f"{EPOCH + n}.000200", text=f"Note {n}")
            live[action.ts] = (user, action.text)
        else:
            if rng.random() < 0.15 and len(out) + 30 < total:  # the change overtakes its reply
                ts = f"{EPOCH + n + 1}.000200"
                late = Action("reply", n + 1, user, ts=ts, text=f"Note {n + 1}")
                deferred.append((len(out) + rng.randint(5, 25), late))
                author, old = user, late.text
            else:
                ts = rng.choice(sorted(live))
                author, old = live.pop(ts)
            if rng.random() < 0.6:
                new = old if rng.random() < 0.25 else f"{old} (edited {n})"  # an unfurl: same text
                live[ts] = (author, new)
                action = Action("edit", n, author, ts=ts, text=new, old_text=old)
            else:
                action = Action("delete", n, author, ts=ts, old_text=old)
        if action is not None:
            fresh.append(len(out))
            out.append(action)
    return out


def requests(*, mix: list[Action], post_id: int, post_ts: str) -> list[Request]:
    """Fresh request bodies (and retry headers) for every delivery of the mix."""
    built: list[Request] = []
    retry: Headers = {"x-slack-retry-num": "1", "x-slack-retry-reason": "timeout"}
    for action in mix:
        if action.kind == "again":
            # A redelivery is the same JSON parsed again; only events carry a retry number.
            body = copy.deepcopy(built[action.ref][0])
            built.append((body, retry if body["type"] == "event_callback" else None))
        else:
            built.append((payload(action=action, post_id=post_id, post_ts=post_ts), None))
    return built


def payload(*, action: Action, post_id: int, post_ts: str) -> dict[str, Any]:
    """What Slack sends for one first delivery, its ids fixed by the sequence number."""
    stamp = f"{EPOCH + action.n // 1000}.{action.n % 1000:06d}"
    if action.kind == "click":
        button = ids.VOTE_UP if action.value > 0 else ids.VOTE_DOWN
        value = ids.encode_post_id(post_id=post_id)
        body = slack.block_actions_payload(button, value, user_id=action.user,
                                           message_ts=post_ts, block_id=ids.VOTE_BLOCK)  # fmt: skip
        body["actions"][0]["action_ts"] = stamp
        return body
    if action.kind in ("react", "unreact"):
        event = slack.reaction_event(user=action.user, reaction=action.name, channel=CHANNEL,
                                     item_ts=action.ts or post_ts,
                                     removed=action.kind == "unreact")  # fmt: skip
        event["event_ts"] = stamp
    else:
        event = slack.message_event(channel=CHANNEL, user=action.user, ts=action.ts,
                                    text=action.old_text or action.text,
                                    thread_ts=post_ts)  # fmt: skip
        if action.kind == "edit":
            event = slack.message_changed_event(channel=CHANNEL, previous=event,
                                                new_text=action.text)  # fmt: skip
        elif action.kind == "delete":
            event = slack.message_deleted_event(channel=CHANNEL, previous=event)
    return slack.event_envelope_payload(event, event_id=f"Ev{action.n:010d}", event_time=EPOCH)


class FixedClock:
    """The bot's clock, stopped at Monday 09:00 in Berlin, when the post is due."""

    def now(self) -> datetime:
        """Always the same instant."""
        return MONDAY_9


def bare_app(*, fake: slack.FakeSlack) -> App:
    """A Bolt app built like ours whose listeners, for the same requests, only ack."""
    client = make_client(token=fake.bot_token, base_url=fake.base_url)
    app = App(client=client, signing_secret="", request_verification_enabled=False,
              process_before_response=True)  # fmt: skip

    def noop(ack: Ack) -> None:
        """The framework's ceiling: nothing but the ack."""
        ack()

    # The same listeners in the same order as bot/slack/app.py, so matching costs the same.
    app.command(COMMAND)(noop)
    for action_id in (ids.VOTE_UP, ids.VOTE_DOWN):
        app.action(action_id)(noop)
    for event in ("reaction_added", "reaction_removed", "message", re.compile(r".*")):
        app.event(event)(noop)
    return app


def dispatch(*, app: App, batch: list[Request]) -> tuple[float, int]:
    """Dispatch each request as the Socket Mode adapter does; seconds taken, non-200 answers."""
    gc.collect()  # garbage left by the setup is not the listeners' to collect
    failures = 0
    start = time.perf_counter()
    for body, headers in batch:
        response = app.dispatch(BoltRequest(body=body, mode="socket_mode", headers=headers))
        failures += response.status != 200
    return time.perf_counter() - start, failures


def compare(*, want: Expected, database: Database, post_id: int) -> str:
    """OK, or how the stored votes (per person) and comments (text, deleted) differ."""
    with database.engine.connect() as conn:
        sql = text("SELECT user_id, value FROM votes WHERE post_id = :p")
        votes = {str(u): int(v) for u, v in conn.execute(sql, {"p": post_id})}
        sql = text("SELECT ts, text, deleted FROM comments WHERE post_id = :p")
        comments = {str(ts): (str(t), bool(d)) for ts, t, d in conn.execute(sql, {"p": post_id})}
    wanted = {user: vote[0] for user, vote in want.votes.items()}
    differ: list[tuple[str, object, object]] = [
        (f"vote of {key}", wanted.get(key), votes.get(key))
        for key in sorted(wanted.keys() | votes.keys())
        if wanted.get(key) != votes.get(key)
    ]
    differ += [(f"comment {key}", want.comments.get(key), comments.get(key))
               for key in sorted(want.comments.keys() | comments.keys())
               if want.comments.get(key) != comments.get(key)]  # fmt: skip
    if not differ:
        return "OK"
    live = sum(not d for _, d in want.comments.values()), sum(not d for _, d in comments.values())
    return (f"MISMATCH: {len(differ)} differ (live comments: want {live[0]}, got {live[1]}); "
            f"{differ[0][0]}: want {differ[0][1]!r}, got {differ[0][2]!r}")  # fmt: skip


def template(*, folder: Path) -> Path:
    """A migrated SQLite file holding the sample reading list, built once and copied per run."""
    path = folder / "template.db"
    upgrade_url(url=f"sqlite:///{path}")
    database = Database(url=f"sqlite:///{path}")
    drafts, _ = ingest.parse(path=str(SAMPLE), text=SAMPLE.read_text(), fmt="auto")
    importing.import_drafts(uow=database, drafts=drafts, now=MONDAY_9)
    database.dispose()  # the last connection to close checkpoints the WAL into the file
    return path


def one_run(*, mix: list[Action], warmup: int, database: Database) -> tuple[float, float, str]:
    """Events per second of ours and of the bare app over the mix, and the counts check."""
    with slack.FakeSlack(ts_base=EPOCH - 86_400) as fake:
        fake.add_channel(CHANNEL, "general")
        settings = Settings(
            slack_bot_token=fake.bot_token, slack_app_token=fake.app_token,
            slack_api_url=fake.base_url, database_url=database.url, channel=CHANNEL,
            post_time=clock_time(9, 0), timezone="Europe/Berlin", days=frozenset(range(1, 6)),
        )  # fmt: skip
        bot = build_slack_bot(settings=settings, database=database, clock=FixedClock(),
                              mode="socket")  # fmt: skip
        try:
            made = posting.post_due(poster=bot.poster, now=MONDAY_9)[CHANNEL].post
            # The result holds the claim; the ts is recorded once Slack has the message.
            found = made and posting.card_of_post(uow=database, platform="slack", post_id=made.id)
            post = found[0] if found else None
            if post is None or post.ts is None:
                raise RuntimeError("the daily post was not made; nothing to vote on")
            rates: list[float] = []
            failures = 0
            for app in (bot.app, bare_app(fake=fake)):
                batch = requests(mix=mix, post_id=post.id, post_ts=post.ts)
                failures += dispatch(app=app, batch=batch[:warmup])[1]
                seconds, failed = dispatch(app=app, batch=batch[warmup:])
                rates.append((len(batch) - warmup) / seconds)
                failures += failed
            bot.coalescer.drain()
        finally:
            bot.close()  # sends the last coalesced redraws while the fake still listens
    want = Expected()
    for action in mix:
        want.apply(action=action)
    check = compare(want=want, database=database, post_id=post.id)
    if failures:
        check = f"MISMATCH: {failures} requests not answered 200; {check}"
    return rates[0], rates[1], check


def run(*, events: int = DEFAULT_EVENTS, repeats: int = 5) -> list[dict[str, Any]]:
    """Measure `repeats` runs of `events` deliveries each, after a warm-up; one result row."""
    warmup = max(50, min(500, events // 10))
    mix = make_mix(total=warmup + events)
    ours: list[float] = []
    bare: list[float] = []
    checks: list[str] = []
    with tempfile.TemporaryDirectory(prefix="paperclub-events-") as folder:
        source = template(folder=Path(folder))
        for repeat in range(repeats):
            path = shutil.copyfile(source, source.with_name(f"run-{repeat}.db"))
            database = Database(url=f"sqlite:///{path}")
            try:
                rate, ceiling, check = one_run(mix=mix, warmup=warmup, database=database)
            finally:
                database.dispose()
            ours.append(rate)
            bare.append(ceiling)
            checks.append(check)
    check = next((c for c in checks if c != "OK"), "OK")
    return [
        {
            "name": "event ingestion (ours)", "unit": "events/s",
            "median": statistics.median(ours), "min": min(ours), "max": max(ours),
            "baseline": "bare Bolt no-op", "baseline_median": statistics.median(bare),
            "baseline_min": min(bare), "baseline_max": max(bare),
            "ratio": statistics.median(ours) / statistics.median(bare),
            "events": events, "repeats": repeats, "counts_match": check == "OK", "check": check,
        }
    ]  # fmt: skip


def table(*, rows: list[dict[str, Any]]) -> str:
    """The rows as plain text: figures, their baseline's, the ratio and the counts check."""
    line = "{:<24} {:>8} {:>8} {:>8}   {:<16} {:>8} {:>8} {:>8} {:>7}  {}"
    names = ("benchmark", "median", "min", "max", "baseline", "median", "min", "max", "ratio")
    lines = [line.format(*names, "counts")]
    for r in rows:
        figures = [f"{r[key]:,.0f}" for key in ("median", "min", "max")]
        ceiling = [f"{r[f'baseline_{key}']:,.0f}" for key in ("median", "min", "max")]
        lines.append(line.format(r["name"], *figures, r["baseline"], *ceiling,
                                 f"{r['ratio']:.3f}", r["check"]))  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run and print the table; exit 1 when the stored counts do not match the mix."""
    parser = argparse.ArgumentParser(prog="python -m bench.events", description=__doc__)
    parser.add_argument("--events", type=int, default=DEFAULT_EVENTS, help="deliveries per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs (median, min, max)")
    args = parser.parse_args(argv)
    rows = run(events=args.events, repeats=args.repeats)
    print(f"{args.events} deliveries per run after a warm-up, {args.repeats} runs, events/s")
    print(table(rows=rows))
    return 0 if all(r["counts_match"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
