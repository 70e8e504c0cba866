"""The log filter: Slack and Discord secrets never reach a log line, whoever logs them."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable

import pytest

from bot.runtime.logs import RedactingFormatter, RedactSecrets, redact

DISCORD_TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhT4xk.q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9"


def _filtered(msg: str, *args: object) -> str:
    """The message a handler with the filter would write."""
    record = logging.LogRecord("paperclub", logging.INFO, __file__, 1, msg, args, None)
    assert RedactSecrets().filter(record)
    return record.getMessage()


def test_slack_tokens_are_redacted() -> None:
    line = _filtered("token %s and %s", "xoxb-123-456-abc", "xapp-1-A0-xyz")
    assert "123-456" not in line and "A0-xyz" not in line
    assert "xoxb-***" in line and "xapp-***" in line


def test_a_discord_token_is_redacted() -> None:
    line = _filtered("Authorization: Bot %s", DISCORD_TOKEN)
    assert DISCORD_TOKEN not in line and "GhT4xk" not in line
    assert line == "Authorization: Bot [discord token]"


def test_ordinary_lines_pass_unchanged() -> None:
    text = "posted paper 2401.01234 in slack:T01:C0123 (message 1764.000100)"
    assert _filtered(text) == text


def _written(*, secrets: tuple[str, ...], log: Callable[[logging.Logger], None]) -> str:
    """What configure_logging's handler writes for one call of `log`."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecrets(secrets=secrets))
    handler.setFormatter(RedactingFormatter("%(levelname)s %(message)s", secrets=secrets))
    logger = logging.getLogger("paperclub.test_logs")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        log(logger)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
    return stream.getvalue()


SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


def test_a_traceback_is_redacted_too() -> None:
    def fail(logger: logging.Logger) -> None:
        try:
            raise RuntimeError(f"auth failed for xoxb-1-2-secretpart with {SIGNING_SECRET}")
        except RuntimeError:
            logger.exception("the call failed")

    written = _written(secrets=(SIGNING_SECRET,), log=fail)
    assert "Traceback (most recent call last)" in written  # the traceback itself is kept
    assert "secretpart" not in written and SIGNING_SECRET not in written
    assert "xoxb-***" in written and "[secret]" in written


def test_the_signing_secret_is_redacted_wherever_it_appears() -> None:
    written = _written(
        secrets=(SIGNING_SECRET,), log=lambda lg: lg.info("settings: %s", {"s": SIGNING_SECRET})
    )
    assert SIGNING_SECRET not in written and "[secret]" in written


def test_a_response_url_is_never_logged() -> None:
    hook = "https://hooks.slack.com/commands/T0001/1234/abcdEFGH"
    body = '{"response_url": "http://127.0.0.1:9999/response/42", "text": "hi"}'
    written = _written(secrets=(), log=lambda lg: lg.info("body %s then %s", body, hook))
    assert "abcdEFGH" not in written and "/response/42" not in written
    assert written.count("[response_url]") == 2
    form = "command=%2Fpaperclub&response_url=https%3A%2F%2Fhooks.slack.com%2Fx&text=hi"
    assert redact(text=form) == "command=%2Fpaperclub&response_url=[response_url]&text=hi"


def test_short_values_are_not_treated_as_secrets() -> None:
    # A test token like "x" must not blank out every x in the log.
    assert _written(secrets=("x",), log=lambda lg: lg.info("next paper")) == "INFO next paper\n"


def test_a_dotted_host_name_is_not_taken_for_a_discord_token() -> None:
    host = "connecting to my-service-name-long-1234.abcde.internal-cluster-domain-local-svc"
    assert _filtered(host) == host


LEAKS = {
    "an xoxc- token": ("cookie token xoxc-1234-5678-abcdefSECRET", "abcdefSECRET"),
    "an xoxd- token": ("d=xoxd-AbCd%2FSECRET%3D", "SECRET"),
    "Bearer_xoxb-": ("auth Bearer_xoxb-1-2-SECRETpart", "SECRETpart"),
    "a Bearer header": ("{'Authorization': 'Bearer ya29.SECRET-opaque'}", "ya29.SECRET"),
    "a GovSlack hook": ("https://hooks.slack-gov.com/commands/T1/2/SECRETgov", "SECRETgov"),
    "an enterprise hook": ("https://hooks.enterprise.slack.com/actions/T1/2/SECRET", "T1/2"),
    "an encoded hook": ("url=https%3A%2F%2Fhooks.slack.com%2Factions%2FSECRET", "SECRET"),
    "the OAuth code in a URL": ("GET /slack/oauth_redirect?code=123.456.SECRET&state=s", "SECRET"),
    "the OAuth code in a form": ("code=123.456.SECRET&client_id=1.2", "SECRET"),
    "the OAuth code in a dict": ("body_params: {'code': '123.456.SECRET'}", "SECRET"),
    "a Discord webhook URL": (
        "PATCH /api/v10/webhooks/1100/aW50ZXJhY3Rpb246SECRET/messages",
        "SECRET",
    ),
    "a Discord callback URL": ("POST /interactions/77/aW50ZXJhY3Rpb246SECRET/callback", "SECRET"),
    "a payload token": ('{"id": "77", "token": "aW50ZXJhY3Rpb246SECRET"}', "SECRET"),
    "an access token field": ("{'access_token': 'opaqueSECRET'}", "SECRET"),
}


@pytest.mark.parametrize(("line", "secret"), LEAKS.values(), ids=LEAKS.keys())
def test_every_credential_shape_is_redacted(line: str, secret: str) -> None:
    assert secret not in _filtered(line)


def test_words_that_only_look_like_fields_pass_unchanged() -> None:
    text = "error_code=42 postcode=1010 tokens=3 unicode=yes Bearers of news"
    assert _filtered(text) == text


def test_a_zotero_key_typed_in_a_command_is_redacted_in_every_form() -> None:
    key = "P9NiFoyLeZu2bZNvvuQPDWsd"
    for line in (
        f"text: watch zotero connect groups/123 {key} from Reading",  # plain
        f'{{"text": "watch ZOTERO connect https://www.zotero.org/groups/123/x {key}"}}',  # JSON
        f"text=watch+zotero+connect+groups%2F123+{key}&user_id=U1",  # Slack's form body
        f"'value': 'zotero  connect users/9 {key}'",  # Discord's options, two spaces
        f"Zotero-API-Key: {key}",  # the header the bot sends it in
    ):
        shown = redact(text=line)
        assert key not in shown and "[secret]" in shown, line


def test_other_zotero_words_pass_unchanged() -> None:
    line = "watch zotero connect groups/123 from Reading list into queue"
    assert redact(text=line) == line


def test_a_zotero_key_typed_anywhere_in_the_command_is_redacted() -> None:
    """Before the library, after `from`, in each form a payload is logged in; a key of Zotero's
    without a digit (one in 70) too."""
    key, plain = "P9NiFoyLeZu2bZNvvuQPDWsd", "AbcdEfghJkmnPqrsTuvwXyzA"
    for line in (
        f"text: watch zotero connect {key} groups/123 from Reading",  # the wrong way round
        f"text: watch zotero connect {plain} groups/123",
        f"watch zotero connect groups/123 from Reading list {key} into tray",
        f'{{"text": "watch zotero connect \\"Reading\\" {key} users/9", "user": "U1"}}',
        f"text=watch+zotero+connect+{key}+groups%2F123&user_id=U1",
        f"text=watch%20zotero%20connect%20from%20x%20{key}&user_id=U1",
        f"'value': 'zotero connect {key} users/9'",
    ):
        shown = redact(text=line)
        key_there = key if key in line else plain
        assert key_there not in shown and "[secret]" in shown, line


def test_only_key_shaped_words_of_the_connect_command_are_redacted() -> None:
    """Words of a command that are no key stay (all one case, not 24 characters, numbers),
    and a key-shaped word outside a connect command is left to the other rules."""
    for line in (
        "watch zotero connect groups/123 from Reading list into queue",
        "watch zotero connect users/4567 from internationalisationlists",  # 24, one case
        "watch zotero connect groups/123 from INTERNATIONALISATIONLIST",
        "watch zotero connect groups/123 from ReadingListOfTheClubX",  # 20, mixed
        "watch zotero connect groups/123456789012345678901234",
        "text=watch+zotero+connect+groups%2F1&user_id=U1 ReadingListOfTheClubXYZa",  # another field
        "paper title: ReadingListOfTheClubXYZa and more",
    ):
        assert redact(text=line) == line, line
