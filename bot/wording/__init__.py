"""Every text a person reads, in one place, as neutral messages (bot/messages.py): the same words
on every platform; each platform only lays them out and escapes them."""
