"""The terms of a paper the keyword ranking compares: its words and adjacent word pairs.

Words are compared as the archive compares titles (bot/ingest's normalise_for_key: case,
accents and punctuation aside). Common English words, words under three letters and bare
numbers carry no topic and are left out; a pair is two kept words that stood together, so
"graph neural networks" gives "graph neural" and "neural networks" beside the three words.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import pairwise

from bot.ingest.keys import normalise_for_key

# Words read from the title and from the abstract each: enough for any real abstract (arXiv's
# cap of 1,920 characters is about 300 words), bounded for a 10,000-character one.
MAX_WORDS = 400
TITLE_WEIGHT = 2  # times a title term is counted: it says more about the topic than the abstract
MIN_LENGTH = 3
STOPWORDS = frozenset(
    """
    about above across after again against all also although among and another any are
    around based because been before being below best better between both but can cannot
    could current did does doing done down due during each either even ever every few first
    for from further given had has have having here how however into its itself just large
    less like made make many may more most much must near new not novel now off often once
    one only other our ours out over own paper per propose proposed provide provides rather
    recent same several should show shows since small some such than that the their them
    then there these they this those three through thus too two under until upon use used
    uses using very via was way well were what when where whether which while who whose why
    will with within without work would yet you your approach approaches method methods
    result results study studies present presents introduce introduces demonstrate achieve
    achieves towards toward second
    """.split()
)


def words(*, text: str) -> list[str]:
    """The topic words of `text` in order, at most MAX_WORDS of them."""
    kept = [
        word
        for word in normalise_for_key(text=text).split()
        if len(word) >= MIN_LENGTH and word not in STOPWORDS and not word.isdigit()
    ]
    return kept[:MAX_WORDS]


def _count(*, found: list[str], into: Counter[str]) -> None:
    """Count `found`'s words and adjacent pairs into `into` (in C: a listing is 2,000 papers)."""
    into.update(found)
    into.update(map(" ".join, pairwise(found)))


def paper_terms(*, title: str, abstract: str) -> dict[str, float]:
    """Each term of a paper with its damped frequency (1 + ln count; title words count
    TITLE_WEIGHT times), so a word repeated ten times is not ten times the topic."""
    counts: Counter[str] = Counter()
    title_words = words(text=title)
    for _ in range(TITLE_WEIGHT):
        _count(found=title_words, into=counts)
    _count(found=words(text=abstract), into=counts)
    return {term: _DAMPED[count] for term, count in counts.items()}


# 1 + ln n for every count a term can reach (a title's MAX_WORDS words TITLE_WEIGHT times, and
# the abstract's once): looked up, as a 2,000-entry listing has half a million terms.
_DAMPED = [0.0, *(1.0 + math.log(n) for n in range(1, (TITLE_WEIGHT + 1) * MAX_WORDS + 1))]
