"""Sort keys for country names: Czech collation for ``CZ``, plain case-folding for ``EN``.

Czech rules (ČSN 97 6030, simplified): ``ch`` is one letter after ``h``; ``č``, ``ř``, ``š``
and ``ž`` are letters of their own after ``c``, ``r``, ``s`` and ``z``; other accents
(á, é, ě, í, ó, ú, ů, ý, ď, ť, ň) only break ties; case breaks ties last.

Example:
    >>> sorted(["Chorvatsko", "Čína", "Hongkong", "Cypr"], key=czech_key)
    ['Cypr', 'Čína', 'Hongkong', 'Chorvatsko']
"""

from __future__ import annotations

import unicodedata

__all__ = ["czech_key", "sort_key"]

_PUNCTUATION = " -'.,0123456789"
_LETTERS = "a b c č d e f g h ch i j k l m n o p q r ř s š t u v w x y z ž".split(" ")
_ORDER: dict[str, int] = {char: i for i, char in enumerate(_PUNCTUATION)}
_ORDER.update({letter: 100 + 10 * i for i, letter in enumerate(_LETTERS)})
_OWN_LETTERS = frozenset("čřšž")


def _strip(char: str) -> str:
    return unicodedata.normalize("NFD", char)[0]


def czech_key(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A sort key for ``text`` in Czech order: (letters, accents, case)."""
    primary: list[int] = []
    secondary: list[int] = []
    tertiary: list[int] = []
    i = 0
    lower = text.lower()
    while i < len(lower):
        char = lower[i]
        if char == "c" and lower[i + 1 : i + 2] == "h":
            primary.append(_ORDER["ch"])
            secondary.append(0)
            tertiary.append(int(text[i].isupper()) * -1)
            i += 2
            continue
        if char in _OWN_LETTERS:
            base, accent = char, 0
        else:
            base = _strip(char)
            accent = 0 if base == char else 1
        primary.append(_ORDER.get(base, 1000 + ord(base)))
        secondary.append(accent)
        tertiary.append(-int(text[i].isupper()))
        i += 1
    return tuple(primary), tuple(secondary), tuple(tertiary)


def sort_key(text: str, lang: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Czech collation for ``lang == "CZ"``, otherwise accent-insensitive case-folded order."""
    if lang == "CZ":
        return czech_key(text)
    folded = "".join(_strip(c) for c in text.casefold())
    return tuple(ord(c) for c in folded), (), tuple(-int(c.isupper()) for c in text)
