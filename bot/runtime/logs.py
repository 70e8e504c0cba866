"""Logging set-up, with redaction that keeps secrets out of every log line and traceback."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

# Slack tokens (xoxb-, xoxp-, xoxc-, xoxd-, xoxe-, xapp-...) never reach a log, whoever logs
# them. Not \b: "_" is a word character, so "Bearer_xoxb-..." had no boundary before the token.
_SECRET = re.compile(r"(?<![A-Za-z0-9])(xox[a-z]|xapp)-[A-Za-z0-9%.-]+")
# Whatever follows "Bearer" (a space, "_", "=" or ":"), in a header or a library's repr of one.
_BEARER = re.compile(r"(?i)(\bBearer[\s_=:]+)[A-Za-z0-9._~+/=%-]+")
# A Discord bot token: the bot's id (digits) in base64, so it starts M, N or O, then a
# timestamp and an HMAC, dot-separated. A host name like my-service-1234.abcde.cluster-local
# is not one (our own token is redacted by its value anyway).
_DISCORD_TOKEN = re.compile(
    r"\b[MNO][A-Za-z0-9_-]{19,29}\.[A-Za-z0-9_-]{5,8}\.[A-Za-z0-9_-]{25,}(?![.\w-])"
)
# An interaction's token answers it for 15 minutes: in webhook and callback URLs
# (/webhooks/<app id>/<token>, /interactions/<id>/<token>/callback).
_DISCORD_ROUTE = re.compile(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9._-]+")
# A response_url lets anyone holding it post into the channel for 30 minutes: never logged,
# whether as a hooks URL of any Slack host (GovSlack's hooks.slack-gov.com too), plain or
# percent-encoded, a JSON field or a form field.
_HOOK = re.compile(
    r"""https?(?::|%3A)(?://|%2F%2F)hooks\.(?:[a-z0-9-]+\.)*slack(?:-gov)?\.com[^\s"'&<>]*"""
)
_RESPONSE_URL = re.compile(r"""(response_url["']?\s*[:=]\s*["']?)[^"'&\s,}]+""")
# Fields that carry a credential, as a form or query field (`code=...`) or a JSON or dict
# field (`"token": "..."`): the OAuth one-time code, Slack's verification token, Discord's
# interaction token, access and refresh tokens, the client secret.
_FIELDS = r"code|(?:[a-z]+_)?token|client_secret"
_FORM_FIELD = re.compile(rf"(?<![A-Za-z0-9_])((?:{_FIELDS})=)[^&\s\"'#,]+")
_JSON_FIELD = re.compile(rf"""(["'](?:{_FIELDS})["']\s*:\s*["'])[^"']+""")
# A Zotero API key as typed in `/paperclub watch zotero connect <library> <key>`: a platform's
# payload logged at DEBUG holds the command's text, plain, JSON or form-encoded ("+", "%20").
# And the header the bot sends it in, should a library ever log one.
_GAP = r"(?:\s|\+|%20)+"
# The library's word ends at the form field's "&" too (a key-long word of the next field is
# not the key).
# Possessive, and not eating a "%20" the gap after it would take: a word that could split
# either way made every log line of "%20"s quadratic or worse (seconds on 10,000 characters).
_LIBRARY_WORD = r"(?:[^\s+\"'&%]|%(?!20))++"
_TYPED_KEY = re.compile(
    rf"(?i)(zotero{_GAP}connect{_GAP}{_LIBRARY_WORD}{_GAP})[A-Za-z0-9]{{16,64}}"
)
_ZOTERO_HEADER = re.compile(r"(?i)(zotero-api-key[\"']?\s*[:=,]\s*[\"']?)[A-Za-z0-9]+")
# A key typed anywhere else in the command (before the library, after `from`): what follows
# "zotero connect" up to the end of the command as logged (a quote not escaped, the form
# field's "&", the line's end), and in it any word shaped like a key: Zotero makes them of 24
# letters and digits at random (dataserver Zotero_Keys::generate, "mixed": a-z, A-Z, 0-9), so
# a key has both cases but for one in some 200,000, while a word typed in a command seldom is
# 24 characters of mixed case (a digit is missing from one key in 70: not required). A word
# may start after a form's escape ("+KEY", "%20KEY").
_CONNECT_TAIL = re.compile(rf"""(?i)zotero{_GAP}connect(?:\\.|[^"'&\r\n\\]){{0,2000}}""")
_KEY_WORD = re.compile(
    r"(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{2}))"
    r"(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]{24}(?![A-Za-z0-9])"
)


def redact(*, text: str, secrets: Iterable[str] = ()) -> str:
    """The text with tokens, codes, response URLs and the given secrets replaced by markers."""
    for secret in secrets:
        text = text.replace(secret, "[secret]")
    text = _BEARER.sub(r"\1[secret]", text)
    text = _SECRET.sub(lambda m: m.group(1) + "-***", text)
    text = _DISCORD_TOKEN.sub("[discord token]", text)
    text = _DISCORD_ROUTE.sub(r"\1[token]", text)
    text = _HOOK.sub("[response_url]", text)
    text = _RESPONSE_URL.sub(r"\1[response_url]", text)
    text = _FORM_FIELD.sub(r"\1[secret]", text)
    text = _CONNECT_TAIL.sub(lambda m: _KEY_WORD.sub("[secret]", m.group(0)), text)
    text = _TYPED_KEY.sub(r"\1[secret]", text)
    text = _ZOTERO_HEADER.sub(r"\1[secret]", text)
    return _JSON_FIELD.sub(r"\1[secret]", text)


class RedactSecrets(logging.Filter):
    """Rewrite a record's message with its secrets replaced; never drop it."""

    def __init__(self, *, secrets: Iterable[str] = ()) -> None:
        """Also redact these exact values (the signing secret has no shape to match)."""
        super().__init__()
        # Short values would blank out ordinary words; real secrets are long.
        self.secrets = tuple(s for s in secrets if len(s) >= 8)

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message in place."""
        message = record.getMessage()
        redacted = redact(text=message, secrets=self.secrets)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class RedactingFormatter(logging.Formatter):
    """Redacts the whole formatted line, tracebacks included: an exception's message or a
    frame's source line can carry a token the record's own message never had."""

    def __init__(self, fmt: str, *, secrets: Iterable[str] = ()) -> None:
        """A Formatter for `fmt` that also redacts these exact values."""
        super().__init__(fmt)
        self.secrets = tuple(s for s in secrets if len(s) >= 8)

    def format(self, record: logging.LogRecord) -> str:
        """The line as the base Formatter writes it, then redacted."""
        return redact(text=super().format(record), secrets=self.secrets)


# slack_sdk's Web client logs every refused connection and each retry of it (an ERROR and two
# INFO lines a call) before raising; our callers say it once in words (which setting, what to
# do), so outside DEBUG those lines are dropped. Its other lines stay.
_SLACK_CLIENT = "slack_sdk.web.base_client"
_SLACK_RETRY_LINES = (
    "Failed to send a request to Slack API server",
    "A retry handler found",
    "Going to retry the same request",
)


class QuietSlackRetries(logging.Filter):
    """Drop slack_sdk's connection-failure and retry lines (see _SLACK_RETRY_LINES)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a retry line; every other record passes."""
        return not str(record.msg).startswith(_SLACK_RETRY_LINES)


def configure_logging(*, level: str, secrets: Iterable[str] = ()) -> None:
    """Log to stderr at the level asked, with secrets redacted from messages and tracebacks."""
    known = tuple(secrets)
    handler = logging.StreamHandler()
    handler.addFilter(RedactSecrets(secrets=known))
    handler.setFormatter(
        RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", secrets=known)
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # bibtexparser logs every block it cannot parse; the import report already names them.
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    # A line per migration step and per scheduler run drowns what matters, unless debugging.
    for chatty in ("alembic", "apscheduler"):
        logging.getLogger(chatty).setLevel(level if level == "DEBUG" else "WARNING")
    slack = logging.getLogger(_SLACK_CLIENT)
    slack.filters[:] = [f for f in slack.filters if not isinstance(f, QuietSlackRetries)]
    if level != "DEBUG":
        slack.addFilter(QuietSlackRetries())
