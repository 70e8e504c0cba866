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
    import discord  # imported here, once, under the filter

# The bot joins no voice channel, so discord.py's start-up warnings that voice libraries are
# missing (PyNaCl, davey) say nothing an operator must act on: a clean start logs no warning.
# These are the flags discord.py itself clears after warning once.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False
