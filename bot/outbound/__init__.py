"""Outbound HTTP: how the bot reads other people's servers, politely and safely.

deadline.py bounds a whole request (connect, TLS, headers, body) by one timeout; address.py
refuses to connect to loopback, link-local, private, multicast or unspecified addresses;
spacing.py gives each host one request at a time, spaced as its terms ask; retry.py says when
to come back after a failure; body.py reads a body under a size cap (gzip included); fetch.py is
the polite conditional GET the sources' watches use (Validators in, Fetched out).

An edge, not the core: bot/sources stays pure (it reads bytes), this package fetches them.
"""
