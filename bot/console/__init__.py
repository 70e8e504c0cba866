"""The local terminal platform."""
