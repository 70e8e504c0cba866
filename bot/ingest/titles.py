"""Short readable titles: clipped at a word, and derived from an abstract's opening."""

from __future__ import annotations

import re

from bot.ingest.clean import clean_text


def _words(*, text: str) -> frozenset[str]:
    """The space-separated words of `text` as a set."""
    return frozenset(text.split())


# Titles derived from abstracts stay short enough for a Slack header and a list line.
TITLE_LIMIT = 90
# A clipped title must not end on a word that promises more ("...models of").
_DANGLING = _words(
    text="a an the of and or nor but to for in on at by with from into onto via as than that"
    " which who whose is are was were be been its their our his her this these those we"
    " such both either each"
)
_ABBREVIATIONS = _words(text="e.g i.e et al vs cf fig figs eq eqs ref refs sec approx resp")
_SENTENCE_END_RE = re.compile(r"[.!?][\"”’)]?\s+(?=[A-Z0-9“\"‘(\[])")
_BOILERPLATE_RE = re.compile(
    r"^(?:(?:in|within) (?:this|the present|our) (?:paper|work|article|study|letter|note|thesis)"
    r"\s*,?\s*(?:we|i)\s+|(?:this|the present|our) (?:paper|work|article|study|letter|note)"
    r"\s+(?:presents|proposes|introduces|describes|reports|develops|studies|investigates|"
    r"explores|addresses|considers|examines|analy[sz]es|(?:shows|argues|demonstrates|"
    r"highlights) that)\s+|(?:here\s*,?\s*)?we\s+(?:propose|present|introduce|describe|report|"
    r"develop|(?:show|argue|demonstrate) that)\s+)",
    re.IGNORECASE,
)
_OPENER_RE = re.compile(
    r"^(?:recently|nowadays|today|however|moreover|furthermore|additionally|currently|"
    r"traditionally|historically|thus|hence|therefore|overall|importantly|notably|"
    r"in recent years|in practice|over the (?:past|last) (?:few )?(?:years|decades?))\s*,\s*",
    re.IGNORECASE,
)
_SUBORDINATE_RE = re.compile(
    r"^(?:although|though|while|whereas|as|since|because|despite|given|with|when|after|"
    r"before|unlike|due to|thanks to|in)\b",
    re.IGNORECASE,
)
_CLAUSE_RE = re.compile(
    r",\s+(?:which|where|while|whereas|but|yet|so|thus|making|leading|resulting|allowing|"
    r"enabling|requiring|including)\b|;\s|:\s|\s[—–]\s"
)
_PAREN_RE = re.compile(r"\s+\([^()]{1,20}\)")


def _first_sentence(*, text: str) -> str:
    """The first sentence of `text`, ignoring the full stops of common abbreviations."""
    for match in _SENTENCE_END_RE.finditer(text):
        words = text[: match.start()].split()
        last = words[-1].lower().rstrip(".") if words else ""
        if last in _ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
            continue
        return text[: match.start() + 1]
    return text


def _capitalise(*, text: str) -> str:
    """`text` with its first letter upper-cased, unless the first word is a name like iPhone."""
    first = text.split(" ", 1)[0]
    # "ß".upper() is "SS": a capital that changes the length could break the limit.
    if first and first.islower() and len(text[0].upper()) == 1:
        return text[0].upper() + text[1:]
    return text


def clip_title(*, title: str, limit: int = TITLE_LIMIT) -> str:
    """`title` cut to `limit` characters at a word boundary, ending in "…" when cut."""
    if len(title) <= limit:
        return title
    cut = title[: limit - 1]
    if not title[limit - 1].isspace() and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    words = cut.split()
    while len(words) > 1 and (
        words[-1].lower().strip(",;:") in _DANGLING or not any(c.isalnum() for c in words[-1])
    ):
        words.pop()
    cut = " ".join(words)
    if cut.count("(") > cut.count(")"):
        cut = cut[: cut.rindex("(")]
    cut = cut.rstrip(" ,;:–—-/(")
    return (cut or title[: limit - 1]) + "…"


def derive_title(*, abstract: str) -> str:
    """A short readable title made from the opening sentence of an abstract."""
    text = clean_text(text=abstract)
    sentence = _first_sentence(text=text)
    sentence = _BOILERPLATE_RE.sub("", sentence, count=1)
    sentence = _OPENER_RE.sub("", sentence, count=1).rstrip(" .")
    if not any(c.isalnum() for c in sentence):
        # Nothing but boilerplate ("In this paper we…"): the raw opening beats no title.
        sentence = text
    if len(sentence) > TITLE_LIMIT:
        # "Although X, Y": the main clause Y says what the paper is about.
        head, _, rest = sentence.partition(", ")
        if rest and _SUBORDINATE_RE.match(head) and len(rest.split()) >= 4:
            sentence = rest
    if len(sentence) > TITLE_LIMIT:
        sentence = _PAREN_RE.sub("", sentence)
    if len(sentence) > TITLE_LIMIT:
        cuts = [m.start() for m in _CLAUSE_RE.finditer(sentence, 0, TITLE_LIMIT)]
        cuts = [c for c in cuts if 40 <= c < TITLE_LIMIT]
        if cuts:
            sentence = sentence[: cuts[-1]].rstrip(" ,;:") + "…"
    return _capitalise(text=clip_title(title=sentence))
