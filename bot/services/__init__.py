"""Use cases, one module per capability; no I/O of their own."""
