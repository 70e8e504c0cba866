"""Secrets at rest (installed Slack workspaces' tokens, Zotero API keys): Fernet (AES-128-CBC +
HMAC-SHA256) under the newest key of PAPERCLUB_SECRET_KEY, any listed key opening what it
sealed, so keys rotate without a moment when a secret cannot be read."""

from __future__ import annotations

from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

# Sealed values carry a prefix: a token stored before encryption (or by another tool) is told
# apart from a sealed one without trying to decrypt it, and sealing twice changes nothing.
PREFIX = "fernet:"


class UnreadableToken(Exception):
    """A sealed token that none of the configured keys opens (a key was dropped too early)."""


class TokenCipher:
    """Seals and opens token strings; the first key seals, every key opens."""

    def __init__(self, *, keys: Sequence[str]) -> None:
        """Keys as PAPERCLUB_SECRET_KEY lists them, newest first (at least one)."""
        if not keys:
            raise ValueError("at least one key is needed")
        self._fernet = MultiFernet([Fernet(key.encode("ascii")) for key in keys])

    @staticmethod
    def is_sealed(*, value: str) -> bool:
        """Whether a stored value is sealed (else it was stored in plain text)."""
        return value.startswith(PREFIX)

    def seal(self, *, value: str | None) -> str | None:
        """The value encrypted under the newest key; None and sealed values are kept as they are."""
        if value is None or value.startswith(PREFIX):
            return value
        return PREFIX + self._fernet.encrypt(value.encode("utf-8")).decode("ascii")

    def open(self, *, value: str | None) -> str | None:
        """The plain value; a value stored unsealed is returned as it is."""
        if value is None or not value.startswith(PREFIX):
            return value
        try:
            return self._fernet.decrypt(value.removeprefix(PREFIX).encode("ascii")).decode()
        except InvalidToken:
            raise UnreadableToken("no key in PAPERCLUB_SECRET_KEY opens a stored token") from None

    def reseal(self, *, value: str | None) -> str | None:
        """The value sealed under the newest key, whichever key (or none) sealed it before."""
        if value is None:
            return None
        if not value.startswith(PREFIX):
            return self.seal(value=value)
        try:
            token = self._fernet.rotate(value.removeprefix(PREFIX).encode("ascii"))
        except InvalidToken:
            raise UnreadableToken("no key in PAPERCLUB_SECRET_KEY opens a stored token") from None
        return PREFIX + token.decode("ascii")


def new_key() -> str:
    """A fresh random key for PAPERCLUB_SECRET_KEY."""
    return Fernet.generate_key().decode("ascii")
