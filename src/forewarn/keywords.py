"""Case-insensitive, word-boundary keyword matching without :mod:`re`.

Text and keywords are folded the same way: lower case, ASCII punctuation
turned into spaces, white space collapsed, and the result padded with one
space on each side.  A keyword matches when its folded form (also padded)
occurs in the folded text, so ``"version"`` matches ``"Bump the version."``
but not ``"versioning"``, and ``"package.json"`` matches ``"package.json"``
and ``"package json"`` alike.
"""

_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_FOLD = str.maketrans(_PUNCT, " " * len(_PUNCT))


def fold(text):
    """The padded, folded form of ``text`` used on both sides of a match."""
    return " " + " ".join(text.lower().translate(_FOLD).split()) + " "


def fold_keyword(keyword):
    """A keyword's folded form, or None if it holds no word at all."""
    folded = fold(keyword)
    return folded if folded.strip() else None


def any_in(folded_keywords, folded_text):
    """The first folded keyword found in the folded text, or None."""
    for keyword in folded_keywords:
        if keyword in folded_text:
            return keyword
    return None
