"""The Discord platform (discord.py): its plug-in, gateway bridge, REST calls and renderer.

Importing this package imports discord.py with exactly one warning silenced: on Python 3.11
discord.py's voice player imports `audioop`, deprecated there, which the bot never uses.
"""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings(
        "ignore",
        message="'audioop' is deprecated and slated for removal in Python 3.13",
        category=DeprecationWarning,
    )
    import discord  # noqa: F401  (imported here, once, under the filter)
