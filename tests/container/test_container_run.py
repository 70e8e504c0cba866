"""The image, run by podman as an operator runs it: a one-off `import` and then `paperclub run`
on a fresh volume migrate it to head and post today's paper to the fake Slack; /healthz and the
image's HEALTHCHECK answer; it runs as a non-root user; SIGTERM stops it at once, cleanly, with
exit code 0; and a new container on the same volume finds everything and posts nothing twice.
All of it in Socket Mode (the image's own command, as docker compose runs it) and in HTTP mode.

It needs an image built from the Dockerfile, named by PAPERCLUB_CONTAINER_IMAGE, and a podman
that works: `.ci/container.sh` builds one and runs this. Anywhere else (as in `make test`) it
skips, saying why. The containers use the host's network, so the bot reaches the fake Slack on
127.0.0.1; every URL it is given is on loopback, so nothing leaves the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from alembic.script import ScriptDirectory

from bot.db.migrate import alembic_config
from tests.conftest import SAMPLE, SAMPLE_ENTRIES
from tests.fakeslack import FakeSlack
from tests.faults.support import daily_posts, free_port

IMAGE = os.environ.get("PAPERCLUB_CONTAINER_IMAGE", "")
if not IMAGE:
    pytest.skip(
        "PAPERCLUB_CONTAINER_IMAGE is not set: .ci/container.sh builds the image with podman "
        "and runs this test against it",
        allow_module_level=True,
    )

# Containers and volumes carry it, so that .ci/container.sh can clear what a killed run left.
LABEL = "org.paperclub.test"
CHANNEL = "C0001"
# Starting a container (podman, the interpreter, the migrations) on a shared two-core machine.
START = 90.0
# SIGTERM to exit: about 2.5 s here (the bot's own clean stop, and podman's bookkeeping).
STOPPED_WITHIN = 10.0
# What `podman stop` waits before SIGKILL: far above STOPPED_WITHIN, so a kill cannot pass.
STOP_GRACE = 20
CAUGHT_UP = "caught up:"  # the start's sweep is done: today's post is made, or was already
STOPPED = "stopped cleanly"
# The container's arguments in each Slack mode: Socket Mode's are none (the image's CMD).
MODES = {"socket": [], "http": ["run", "--mode", "http"]}
# Read inside a throwaway container of the image, as the bot's own user: whatever the host's
# podman (rootless or not) does with the volume's owners, the files are readable there.
FACTS = """
import json, os, sqlite3
db = sqlite3.connect("file:/data/paperclub.db?mode=ro", uri=True)
print(json.dumps({
    "revisions": [r[0] for r in db.execute("SELECT version_num FROM alembic_version")],
    "papers": db.execute("SELECT count(*) FROM papers").fetchone()[0],
    "posts": [list(r) for r in db.execute(
        "SELECT local_date, state, message_id FROM posts ORDER BY id")],
    "owner": os.stat("/data/paperclub.db").st_uid,
}))
"""

pytestmark = pytest.mark.timeout(300)  # the story below runs once, in a module fixture


def podman(
    *args: str, check: bool = True, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run podman; a failure names the command and shows what podman said."""
    done = subprocess.run(
        ["podman", *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    if check and done.returncode != 0:
        raise AssertionError(
            f"podman {' '.join(args)}: exit {done.returncode}\n{done.stdout}{done.stderr}"
        )
    return done


class Logs:
    """A container's output as it comes (`podman logs -f`), to wait on a line of it."""

    def __init__(self, *, container: str) -> None:
        """Follow from the container's first line."""
        self.lines: list[str] = []
        self.ended = False
        self._changed = threading.Condition()
        self._process = subprocess.Popen(
            ["podman", "logs", "-f", container],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Collect lines until the container's output ends (it stopped)."""
        assert self._process.stdout is not None
        for line in self._process.stdout:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self.ended = True
            self._changed.notify_all()

    def text(self) -> str:
        """Everything logged so far."""
        with self._changed:
            return "".join(self.lines)

    def wait_ended(self, *, timeout: float) -> None:
        """Return once the container's output has ended (it stopped), or after `timeout`."""
        with self._changed:
            self._changed.wait_for(lambda: self.ended, timeout=timeout)

    def wait_for(self, sign: str, *, timeout: float) -> None:
        """Return once a line holds `sign`; fail, showing the log, if it ends or time runs out."""

        def seen() -> bool:
            return any(sign in line for line in self.lines)

        with self._changed:
            self._changed.wait_for(lambda: seen() or self.ended, timeout=timeout)
            if not seen():
                why = "the container's output ended" if self.ended else f"{timeout:.0f}s passed"
                raise AssertionError(f"{sign!r} was not logged ({why}):\n{''.join(self.lines)}")

    def close(self) -> None:
        """Stop following."""
        if self._process.poll() is None:
            self._process.terminate()
        self._process.wait(timeout=10)
        self._reader.join(timeout=10)
        if self._process.stdout is not None:
            self._process.stdout.close()


@dataclass
class Run:
    """What one container did, from its start to its end."""

    name: str
    facts_before_stop: dict[str, Any]
    healthz: tuple[int, str]
    healthcheck: subprocess.CompletedProcess[str]
    uid: str
    stop_seconds: float
    exit_code: int
    log: str
    posts_seen: int  # daily posts the fake held when the start's sweep was done


@dataclass
class Story:
    """The whole life of the image on one volume: the seeding import, two runs."""

    image_user: str
    image_env: list[str]
    imported: subprocess.CompletedProcess[str]
    first: Run
    after_first: dict[str, Any]
    second: Run
    after_second: dict[str, Any]
    post_messages: list[dict[str, Any]]
    daily_posts: list[dict[str, Any]]


def _podman_problem() -> str | None:
    """Why podman cannot run containers here, or None when it can."""
    if shutil.which("podman") is None:
        return "podman is not installed"
    done = podman("info", check=False, timeout=60)
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["(nothing)"])[-1]
        return f"podman info fails here: {said}"
    return None


def _facts(*, volume: str) -> dict[str, Any]:
    """What the volume's database holds, read by a throwaway container (no network)."""
    done = podman(
        "run",
        "--rm",
        "--network",
        "none",
        "--label",
        LABEL,
        "-v",
        f"{volume}:/data",
        "--entrypoint",
        "python3",
        IMAGE,
        "-c",
        FACTS,
    )
    facts: dict[str, Any] = json.loads(done.stdout)
    return facts


def _healthz(*, port: int, timeout: float) -> tuple[int, str]:
    """GET /healthz on the container's port until it says 200 (the server may start listening
    after the start's sweep is done, and may say 503 until the scheduler has run), or until
    `timeout`: the last status and body (0: nothing ever answered)."""
    answer, deadline = (0, "nothing listened"), time.monotonic() + timeout
    while answer[0] != 200 and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as got:
                answer = int(got.status), got.read().decode()
        except urllib.error.HTTPError as refused:
            answer = int(refused.code), refused.read().decode()
        except (urllib.error.URLError, ConnectionError) as failed:
            answer = 0, f"nothing listened: {failed}"
        if answer[0] != 200:
            time.sleep(0.1)  # between polls of the answer waited for, never before an assert
    return answer


def _bot_env(*, fake: FakeSlack, port: int, mode: str) -> list[str]:
    """`-e` options: an operator's settings, every URL pointed at loopback (the fake Slack, and
    arXiv and Crossref at the fake's 404s); a post time that has passed, so the start's sweep
    posts today's paper at once."""
    env = {
        # What picks the mode: an app token, or only a signing secret.
        **(
            {"SLACK_APP_TOKEN": fake.app_token}
            if mode == "socket"
            else {"SLACK_SIGNING_SECRET": "container-test-signing-secret"}
        ),
        "SLACK_BOT_TOKEN": fake.bot_token,
        "SLACK_API_URL": fake.base_url,
        "PAPERCLUB_CHANNEL": CHANNEL,
        "PAPERCLUB_POST_TIME": "00:00",
        "PAPERCLUB_TIMEZONE": "UTC",
        "PAPERCLUB_DAYS": "daily",
        "PAPERCLUB_HTTP_PORT": str(port),
        # The image listens on every interface (its ENV); on the host's network that would be
        # the machine's, so the test keeps it to loopback.
        "PAPERCLUB_HTTP_HOST": "127.0.0.1",
        "PAPERCLUB_LOG_LEVEL": "INFO",
        "PAPERCLUB_ARXIV_API_URL": f"{fake.http_url}/arxiv",
        "PAPERCLUB_CROSSREF_API_URL": f"{fake.http_url}/crossref",
    }
    return [option for key, value in env.items() for option in ("-e", f"{key}={value}")]


def _run(*, fake: FakeSlack, volume: str, name: str, mode: str) -> Run:
    """Start `paperclub run` in a container on the volume, wait for its start's sweep, look at
    it from outside, then SIGTERM it and see how it ended."""
    port = free_port()
    podman(
        "run",
        "--detach",
        "--name",
        name,
        "--label",
        LABEL,
        "--network",
        "host",
        "-v",
        f"{volume}:/data",
        *_bot_env(fake=fake, port=port, mode=mode),
        IMAGE,
        *MODES[mode],
    )
    logs = Logs(container=name)
    try:
        logs.wait_for(CAUGHT_UP, timeout=START)
        posts_seen = len(daily_posts(fake, CHANNEL))
        healthz = _healthz(port=port, timeout=START)
        healthcheck = podman("healthcheck", "run", name, check=False, timeout=60)
        uid = podman("exec", name, "id", "-u").stdout.strip()
        facts = _facts(volume=volume)
        asked = time.monotonic()
        podman("stop", "-t", str(STOP_GRACE), name, timeout=STOP_GRACE + 30)
        stop_seconds = time.monotonic() - asked
        logs.wait_ended(timeout=10)  # all of its output, to its last line
    finally:
        logs.close()
    state = podman("inspect", "--format", "{{.State.ExitCode}}", name).stdout.strip()
    return Run(
        name=name,
        facts_before_stop=facts,
        healthz=healthz,
        healthcheck=healthcheck,
        uid=uid,
        stop_seconds=stop_seconds,
        exit_code=int(state),
        log=logs.text(),
        posts_seen=posts_seen,
    )


@pytest.fixture(scope="module", params=sorted(MODES))
def story(request: pytest.FixtureRequest) -> Iterator[Story]:
    """Seed a fresh volume with the sample list, run the bot, stop it, run it again, stop it;
    every container and the volume are removed at the end, whatever happened."""
    mode = str(request.param)
    problem = _podman_problem()
    if problem is not None:
        pytest.skip(problem)
    if podman("image", "exists", IMAGE, check=False).returncode != 0:
        pytest.fail(f"PAPERCLUB_CONTAINER_IMAGE={IMAGE} names no image podman has")
    tag = uuid.uuid4().hex[:8]
    volume, names = f"paperclub-test-{tag}", [f"paperclub-test-{tag}-1", f"paperclub-test-{tag}-2"]
    podman("volume", "create", "--label", LABEL, volume)
    try:
        with FakeSlack() as fake:
            fake.add_channel(CHANNEL, "general")
            user = podman("image", "inspect", "--format", "{{.Config.User}}", IMAGE).stdout
            env = podman("image", "inspect", "--format", "{{json .Config.Env}}", IMAGE).stdout
            imported = podman(
                "run",
                "--rm",
                "--network",
                "none",
                "--label",
                LABEL,
                "-v",
                f"{volume}:/data",
                "-v",
                f"{SAMPLE}:/seed/reading-list.txt:ro",
                IMAGE,
                "import",
                "/seed/reading-list.txt",
            )
            first = _run(fake=fake, volume=volume, name=names[0], mode=mode)
            after_first = _facts(volume=volume)
            second = _run(fake=fake, volume=volume, name=names[1], mode=mode)
            after_second = _facts(volume=volume)
            yield Story(
                image_user=user.strip(),
                image_env=json.loads(env),
                imported=imported,
                first=first,
                after_first=after_first,
                second=second,
                after_second=after_second,
                post_messages=fake.calls("chat.postMessage"),
                daily_posts=daily_posts(fake, CHANNEL),
            )
    finally:
        for name in names:
            podman("rm", "--force", "--time", "0", name, check=False)
        podman("volume", "rm", "--force", volume, check=False)


def _head() -> set[str]:
    """The head revision(s) of the checkout's migrations."""
    return set(ScriptDirectory.from_config(alembic_config(url="sqlite://")).get_heads())


def test_the_image_runs_as_a_non_root_user(story: Story) -> None:
    user = story.image_user.partition(":")[0]
    assert user not in ("", "0", "root"), f"the image's USER is {story.image_user!r}"
    assert story.first.uid not in ("", "0"), story.first.log
    # The database on the volume is the bot's own, so the volume works as the image makes it.
    assert str(story.after_first["owner"]) == story.first.uid


def test_a_fresh_volume_is_migrated_to_head(story: Story) -> None:
    assert "Added" in story.imported.stdout, story.imported.stdout + story.imported.stderr
    assert set(story.first.facts_before_stop["revisions"]) == _head()
    assert story.after_first["papers"] == SAMPLE_ENTRIES


def test_the_running_container_posts_todays_paper_to_slack(story: Story) -> None:
    assert story.first.posts_seen == 1, story.first.log
    (post,) = story.after_first["posts"]
    local_date, state, message_id = post
    assert message_id == story.daily_posts[0]["ts"], (post, story.daily_posts)
    assert state == "posted" and local_date, post


def test_healthz_and_the_images_healthcheck_answer(story: Story) -> None:
    # What /healthz says, and the address the image listens on (so that a published port works).
    assert story.first.healthz[0] == 200, story.first.healthz
    assert json.loads(story.first.healthz[1])["healthy"] is True, story.first.healthz
    assert "PAPERCLUB_HTTP_HOST=0.0.0.0" in story.image_env, story.image_env
    check = story.first.healthcheck
    assert check.returncode == 0, check.stdout + check.stderr


def test_sigterm_stops_it_cleanly_and_at_once(story: Story) -> None:
    for run in (story.first, story.second):
        assert run.exit_code == 0, run.log
        assert run.stop_seconds < STOPPED_WITHIN, (run.stop_seconds, run.log)
        assert "received SIGTERM" in run.log and STOPPED in run.log, run.log


def test_a_new_container_on_the_same_volume_keeps_everything_and_posts_nothing_twice(
    story: Story,
) -> None:
    assert story.second.posts_seen == 1, story.second.log
    assert story.after_second["posts"] == story.after_first["posts"]
    assert story.after_second["papers"] == story.after_first["papers"]
    assert len(story.post_messages) == 1, story.post_messages
    assert len(story.daily_posts) == 1, story.daily_posts
