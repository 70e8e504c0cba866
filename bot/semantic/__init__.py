"""Meaning for search, related papers and the picker: an optional extra (paperclub[semantic]);
loaded lazily so a plain install never imports it."""
