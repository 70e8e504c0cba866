"""Text cleaning: TeX leftovers to Unicode, control characters out, whitespace collapsed."""

from __future__ import annotations

import re
import unicodedata


def _words(*, text: str) -> frozenset[str]:
    """The space-separated words of `text` as a set."""
    return frozenset(text.split())


# Escaped specials survive brace stripping and math detection as private-use
# placeholders, and are restored last.
_ESCAPES = {"\\$": "\ue000$", "\\{": "\ue001{", "\\}": "\ue002}", "\\%": "\ue003%"}
_ESCAPES |= {"\\&": "\ue004&", "\\#": "\ue005#", "\\_": "\ue006_"}
_RESTORE = str.maketrans({v[0]: v[1] for v in _ESCAPES.values()})
_ESCAPE_RE = re.compile(r"\\[${}%&#_]")

_ACCENTS = {
    '"': "\u0308",
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "b": "\u0331",
    "d": "\u0323",
}
_BASE = r"(\\[ij](?![A-Za-z])|[A-Za-z])"
_SYMBOL_ACCENT_RE = re.compile(r"\\([\"'`^~=.])\s*(?:\{\s*" + _BASE + r"\s*\}|" + _BASE + ")")
_LETTER_ACCENT_RE = re.compile(r"\\([uvHckrbd])(?:\s*\{\s*" + _BASE + r"\s*\}|\s+([A-Za-z]))")

_WORDS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "aa": "å",
    "AA": "Å",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
    "j": "ȷ",
    "ldots": "…",
    "dots": "…",
    "cdots": "⋯",
    "times": "×",
    "cdot": "·",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "sim": "∼",
    "infty": "∞",
    "pm": "±",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "textendash": "–",
    "textemdash": "—",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "log": "log",
    "textasciitilde": "~",
    "textunderscore": "_",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    # Cleaned text never holds a backslash; a literal one carries no meaning in a title.
    "textbackslash": "",
}
_GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho"
_GREEK += " sigma tau upsilon phi chi psi omega"
_WORDS |= dict(zip(_GREEK.split(), "αβγδεζηθικλμνξπρστυφχψω", strict=True))
_WORDS |= {"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π"}
_WORDS |= {"Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "varepsilon": "ε", "vartheta": "ϑ"}
# Font switches such as {\bf x} change looks, not words.
_SWITCHES = frozenset(
    [
        "bf",
        "it",
        "em",
        "sc",
        "rm",
        "tt",
        "sf",
        "sl",
        "small",
        "large",
        "Large",
        "footnotesize",
        "normalsize",
    ]
)
_WORD_RE = re.compile(r"\\([A-Za-z]+)(?:\{\})?")

_MATH_RE = re.compile(
    r"\$\$(.+?)\$\$|\\\((.+?)\\\)|\\\[(.+?)\\\]|\$(?=\S)([^$]*?\S)\$(?!\d)", re.DOTALL
)
_DROP_RE = re.compile(
    r"\\(?:cite[a-zA-Z]*|ref|eqref|autoref|label|[vh]space|footnote)\*?(?:\[[^\]]*\])*\{[^{}]*\}"
)
_HREF_RE = re.compile(r"\\href\s*\{[^{}]*\}")
_UNWRAP_RE = re.compile(r"\\[A-Za-z]+\*?(?:\[[^\]]*\])*\s*(?=\{(?!\}))")
_SPACING_RE = re.compile(r"\\(?:[,;: ]|quad\b|qquad\b)")
_ELLIPSIS_RE = re.compile(r"(?:\.\s?){2}\.|…(?:\s*…)+")
_TIE_RE = re.compile(r"(?<=[^\s/])~(?=\S)")


def _accent(*, mark: str, base: str) -> str:
    """A base letter with a TeX accent applied, composed where Unicode has the letter."""
    letter = {"\\i": "i", "\\j": "j"}.get(base, base)
    return unicodedata.normalize("NFC", letter + _ACCENTS[mark])


def _word(*, match: re.Match[str]) -> str:
    """The Unicode for one TeX control word; unknown words keep their name, switches vanish."""
    name = match.group(1)
    if name in _SWITCHES:
        return ""
    return _WORDS.get(name, name)


def tex_to_unicode(*, text: str) -> str:
    """`text` with TeX markup (accents, math, commands, braces, dashes, ties) as Unicode."""
    if "\\" in text or "$" in text or "{" in text or "}" in text:
        text = _markup_to_unicode(text=text)
    text = text.replace("---", "—").replace("--", "–").replace("``", "“").replace("''", "”")
    if "~" in text:
        # A tie between two words is TeX's non-breaking space; a free-standing ~ in
        # plain text ("~50%") means "about" and stays.
        text = _TIE_RE.sub(" ", text)
    return text


def _markup_to_unicode(*, text: str) -> str:
    """`text` with TeX commands, math and braces resolved; escaped specials as placeholders."""
    text = re.sub("[\ue000-\ue006]", "", text)
    text = _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)][0], text)
    text = _MATH_RE.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    text = text.replace("\\\\", " ")
    text = re.sub(r"\\[-/@!]", "", text)
    text = _SPACING_RE.sub(" ", text)
    text = _SYMBOL_ACCENT_RE.sub(
        lambda m: _accent(mark=m.group(1), base=m.group(2) or m.group(3)), text
    )
    text = _LETTER_ACCENT_RE.sub(
        lambda m: _accent(mark=m.group(1), base=m.group(2) or m.group(3)), text
    )
    text = _DROP_RE.sub("", text)
    text = _HREF_RE.sub("", text)
    text = _UNWRAP_RE.sub("", text)
    text = _WORD_RE.sub(lambda m: _word(match=m), text)
    return text.replace("{", "").replace("}", "").replace("\\", "").translate(_RESTORE)


def _keep_char(*, char: str) -> str:
    """`char`, or a space or nothing when it is a control or format character."""
    category = unicodedata.category(char)
    if category == "Cc":
        return " "
    # Zero-width joiners hold emoji and Indic scripts together; other format
    # characters (soft hyphens, zero-width spaces, BOMs) only hide words from search.
    if category == "Cf" and char not in "\u200c\u200d":
        return ""
    return char


def clean_text(*, text: str) -> str:
    """One readable line: TeX to Unicode, NFC, no control characters, single spaces."""
    # Invisible characters go first: a soft hyphen must not hide "`" + "`" from TeX.
    if not text.isprintable():
        text = "".join(_keep_char(char=c) for c in text)
    text = tex_to_unicode(text=text)
    text = unicodedata.normalize("NFC", text)
    text = " ".join(text.split())
    if ".." in text or ". ." in text or "……" in text or "… …" in text:
        text = _ELLIPSIS_RE.sub("…", text)
    return text
