"""The User-Agent every outbound request sends: Paper Club, and the operator's contact when
PAPERCLUB_CONTACT is set (arXiv and Crossref ask for one, to reach whoever runs a client that
misbehaves)."""

from __future__ import annotations

PRODUCT = "PaperClub/0.2 (reading-group bot; https://github.com/paperclub/paperclub"


def user_agent(*, contact: str) -> str:
    """A descriptive User-Agent, with `contact` (an email) when set."""
    return f"{PRODUCT}; mailto:{contact})" if contact else f"{PRODUCT})"
