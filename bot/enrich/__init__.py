"""Enrichment: finding a paper we know only in part (a title made from its abstract, an
abstract cut off with "…", no id) in arXiv and Crossref, and filling in what they know.

match.py decides, purely, whether a found record is clearly the same paper; the services'
clients, the rate limits, the cache and the service that applies the changes live beside it.
"""
