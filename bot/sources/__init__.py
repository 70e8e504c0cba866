"""Reading the sources a watch follows into candidates: pure parsers, no network or storage.

feeds.py reads arXiv's announcement feeds, the arXiv API and any RSS or Atom feed; crossref.py
reads Crossref's /works answers; candidates.py holds the Candidate value and its dedupe keys;
keywords.py says whether a candidate passes a watch's keyword and author filters, and why.
"""
