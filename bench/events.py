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
import gc
import re
import shutil
import statistics
import tempfile
import threading
import time
from datetime import datetime
from datetime import time as clock_time
from pathlib import Path
from typing import Any

from slack_bolt import Ack, App, BoltRequest
from sqlalchemy import text

from bench.event_mix import (
    CHANNEL,
    EPOCH,
    MONDAY_9,
    USERS,
    Action,
    Expected,
    Request,
    make_mix,
    requests,
)
from bot import ingest
from bot.config.settings import Settings
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import ChannelKey
from bot.services import importing, post_card, posting
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.slack import ids
from bot.slack.client import make_client
from bot.slack.listeners.commands import COMMAND
from tests import fakeslack as slack  # a local fake Slack, and payloads shaped like Slack's
from tests.wired import build_slack_bot

SAMPLE = Path(__file__).resolve().parents[1] / "bot" / "data" / "reading-list.txt"
# Ours ingests ~150-220 events/s on the 2-core reference machine: 1,000 a run keeps 5 runs
# under a minute.
DEFAULT_EVENTS = 1000
# slack_sdk's Socket Mode client runs listeners on a pool of this many threads by default.
WORKERS = 10
USERS_INDEX = {user: n for n, user in enumerate(USERS)}


class FixedClock:
    """The bot's clock, stopped at Monday 09:00 in Berlin, when the post is due."""

    def now(self) -> datetime:
        """Always the same instant."""
        return MONDAY_9


def bare_app(*, fake: slack.FakeSlack) -> App:
    """A Bolt app built like ours whose listeners, for the same requests, only ack."""
    client = make_client(token=fake.bot_token, base_url=fake.base_url, telemetry=Telemetry())
    app = App(
        client=client,
        signing_secret="",
        request_verification_enabled=False,
        process_before_response=True,
    )

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


def lanes(*, mix: list[Action], batch: list[Request], count: int = WORKERS) -> list[list[Request]]:
    """The batch split over `count` workers, each person's deliveries on one lane in mix order:
    Slack delivers concurrently, but one person's clicks, reactions and replies (and their
    redeliveries) arrive in the order they were made, which the expected state assumes."""
    split: list[list[Request]] = [[] for _ in range(count)]
    for action, request in zip(mix, batch, strict=True):
        person = mix[action.ref].user if action.kind == "again" else action.user
        split[USERS_INDEX[person] % count].append(request)
    return split


def dispatch(*, app: App, lanes: list[list[Request]]) -> tuple[float, int]:
    """Dispatch every lane on its own thread, as the Socket Mode adapter's worker pool does (one
    envelope per worker at a time); seconds until the last answer, non-200 answers."""
    gc.collect()  # garbage left by the setup is not the listeners' to collect
    failures = [0] * len(lanes)
    start_line = threading.Barrier(len(lanes) + 1)

    def work(lane: int) -> None:
        """One worker's deliveries, one after another."""
        start_line.wait()
        for body, headers in lanes[lane]:
            response = app.dispatch(BoltRequest(body=body, mode="socket_mode", headers=headers))
            failures[lane] += response.status != 200

    threads = [threading.Thread(target=work, args=(n,)) for n in range(len(lanes))]
    for thread in threads:
        thread.start()
    start_line.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, sum(failures)


def compare(*, want: Expected, database: Database, post_id: int) -> str:
    """OK, or how the stored votes (per person) and comments (text, deleted) differ."""
    with database.engine.connect() as conn:
        sql = text("SELECT user_id, value FROM votes WHERE post_id = :p")
        votes = {str(u): int(v) for u, v in conn.execute(sql, {"p": post_id})}
        sql = text("SELECT message_id, text, deleted FROM comments WHERE post_id = :p")
        comments = {str(ts): (str(t), bool(d)) for ts, t, d in conn.execute(sql, {"p": post_id})}
    wanted = {user: vote[0] for user, vote in want.votes.items()}
    differ: list[tuple[str, object, object]] = [
        (f"vote of {key}", wanted.get(key), votes.get(key))
        for key in sorted(wanted.keys() | votes.keys())
        if wanted.get(key) != votes.get(key)
    ]
    differ += [
        (f"comment {key}", want.comments.get(key), comments.get(key))
        for key in sorted(want.comments.keys() | comments.keys())
        if want.comments.get(key) != comments.get(key)
    ]
    if not differ:
        return "OK"
    live = sum(not d for _, d in want.comments.values()), sum(not d for _, d in comments.values())
    return (
        f"MISMATCH: {len(differ)} differ (live comments: want {live[0]}, got {live[1]}); "
        f"{differ[0][0]}: want {differ[0][1]!r}, got {differ[0][2]!r}"
    )


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
            slack_bot_token=fake.bot_token,
            slack_app_token=fake.app_token,
            slack_api_url=fake.base_url,
            database_url=database.url,
            channel=CHANNEL,
            post_time=clock_time(9, 0),
            timezone="Europe/Berlin",
            days=frozenset(range(1, 6)),
        )
        bot = build_slack_bot(
            settings=settings, database=database, clock=FixedClock(), mode="socket"
        )
        try:
            key = ChannelKey(platform="slack", workspace=bot.team_id, channel=CHANNEL)
            made = posting.post_due(poster=bot.poster, now=MONDAY_9)[key].post
            # The result holds the claim; the message id is recorded once Slack has the message.
            found = made and post_card.card_of_post(
                uow=database, post_id=made.id, semantic_extra=NO_SEMANTIC
            )
            post = found[0] if found else None
            if post is None or post.message_id is None:
                raise RuntimeError("the daily post was not made; nothing to vote on")
            rates: list[float] = []
            failures = 0
            for app in (bot.app, bare_app(fake=fake)):
                batch = requests(mix=mix, post_id=post.id, post_ts=post.message_id)
                warm = lanes(mix=mix[:warmup], batch=batch[:warmup])
                failures += dispatch(app=app, lanes=warm)[1]
                measured = lanes(mix=mix, batch=batch)  # whole mix: redeliveries refer back
                timed = [lane[len(w) :] for lane, w in zip(measured, warm, strict=True)]
                seconds, failed = dispatch(app=app, lanes=timed)
                rates.append((len(batch) - warmup) / seconds)
                failures += failed
                # Our redraws go out before the bare run, so they do not slow it down.
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
            "name": "event ingestion (ours)",
            "unit": "events/s",
            "median": statistics.median(ours),
            "min": min(ours),
            "max": max(ours),
            "baseline": "bare Bolt no-op",
            "baseline_median": statistics.median(bare),
            "baseline_min": min(bare),
            "baseline_max": max(bare),
            "ratio": statistics.median(ours) / statistics.median(bare),
            "events": events,
            "repeats": repeats,
            "counts_match": check == "OK",
            "check": check,
        }
    ]


def table(*, rows: list[dict[str, Any]]) -> str:
    """The rows as plain text: figures, their baseline's, the ratio and the counts check."""
    line = "{:<24} {:>8} {:>8} {:>8}   {:<16} {:>8} {:>8} {:>8} {:>7}  {}"
    names = ("benchmark", "median", "min", "max", "baseline", "median", "min", "max", "ratio")
    lines = [line.format(*names, "counts")]
    for r in rows:
        figures = [f"{r[key]:,.0f}" for key in ("median", "min", "max")]
        ceiling = [f"{r[f'baseline_{key}']:,.0f}" for key in ("median", "min", "max")]
        lines.append(
            line.format(
                r["name"], *figures, r["baseline"], *ceiling, f"{r['ratio']:.3f}", r["check"]
            )
        )
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
