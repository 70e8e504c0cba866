"""Paper Club: a reading-group bot."""
