"""The words of meaning: how search says which engine ranked it, related papers, the picker."""

from __future__ import annotations

KEYWORD = "keyword"
HYBRID = "hybrid"
FUSED = "keyword (bm25) and meaning (vectors) fused by reciprocal rank"
NO_WORDS = "filters only: no words to rank by, so the latest posts come first"
