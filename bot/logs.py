"""Logging set-up, with a filter that keeps Slack and Discord secrets out of every log line."""

from __future__ import annotations

import logging
import re

# Tokens (xoxb-, xoxp-, xapp-, xoxe-...) and signing secrets never reach a log, whoever logs them.
_SECRET = re.compile(r"\b(xox[abepr]|xapp)-[A-Za-z0-9-]+")
# A Discord bot token: the bot's id in base64, a timestamp and an HMAC, dot-separated.
_DISCORD_TOKEN = re.compile(r"\b[A-Za-z0-9_-]{20,30}\.[A-Za-z0-9_-]{5,8}\.[A-Za-z0-9_-]{25,}")


class RedactSecrets(logging.Filter):
    """Replace anything shaped like a Slack or Discord token with a marker."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message in place; never drop it."""
        message = record.getMessage()
        redacted = _SECRET.sub(lambda m: m.group(1) + "-***", message)
        redacted = _DISCORD_TOKEN.sub("[discord token]", redacted)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def configure_logging(*, level: str) -> None:
    """Log to stderr at the level asked, with secrets redacted."""
    handler = logging.StreamHandler()
    handler.addFilter(RedactSecrets())
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # bibtexparser logs every block it cannot parse; the import report already names them.
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    # A line per migration step and per scheduler run drowns what matters, unless debugging.
    for chatty in ("alembic", "apscheduler"):
        logging.getLogger(chatty).setLevel(level if level == "DEBUG" else "WARNING")
