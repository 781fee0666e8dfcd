"""Case-insensitive, word-boundary keyword matching without :mod:`re`.

Text and keywords are folded the same way: lower case, ASCII punctuation
turned into spaces, white space collapsed, and the result padded with one
space on each side.  A keyword matches when its folded form (also padded)
occurs in the folded text, so ``"version"`` matches ``"Bump the version."``
but not ``"versioning"``, and ``"package.json"`` matches ``"package.json"``
and ``"package json"`` alike.

In a shell command the words of a keyword may also be apart, in order,
within one simple command (:func:`in_command`): shell flags and arguments
go anywhere, so ``"push --force"`` matches ``git push origin main --force``
and ``"terraform destroy"`` matches ``terraform -chdir=infra destroy``.
"""

_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_FOLD = str.maketrans(_PUNCT, " " * len(_PUNCT))


def fold(text):
    """The padded, folded form of ``text`` used on both sides of a match."""
    return " " + " ".join(text.lower().translate(_FOLD).split()) + " "


class FoldedText(str):
    """A long folded text (the recent conversation) searched many times: a one-word keyword is looked up in the
    set of its words, built on the first such search, instead of scanning the text again.  ``" deploy " in t``
    means exactly what it means for the plain string, since folding leaves single spaces between words."""

    def __contains__(self, keyword):
        if keyword.count(" ") == 2 and keyword[:1] == " " and keyword[-1:] == " ":
            return keyword[1:-1] in self.words()
        return str.__contains__(self, keyword)

    def words(self):
        """The set of the text's words (computed once)."""
        found = self.__dict__.get("_words")
        if found is None:
            found = self.__dict__["_words"] = frozenset(self.split())
        return found


def fold_text(text):
    """:func:`fold` as a :class:`FoldedText`, for a text searched for many keywords."""
    return FoldedText(fold(text))


def fold_keyword(keyword):
    """A keyword's folded form, or None if it holds no word at all."""
    folded = fold(keyword)
    return folded if folded.strip() else None


def written_in_capitals(keyword):
    """True for a keyword written in capitals with three letters or more (``UPDATE``, ``DELETE FROM``): a SQL or
    shell word, which in English prose ("Update my branch") is another word."""
    letters = [c for c in keyword if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def punctuation_is_meaning(keyword):
    """True for a one-token keyword whose leading punctuation or parentheses make it what it is: a flag
    (``-delete``, ``--no-verify``), a method call (``.delete()``, ``print(``).  Folded, it would be the bare word."""
    keyword = keyword.strip()
    return bool(keyword) and " " not in keyword and (keyword[0] in "-." or "(" in keyword) and any(c.isalpha() for c in keyword)


def holds_literally(literal, text):
    """True if ``literal`` (lower case) occurs in ``text`` (lower case) not glued to a letter or digit before it:
    ``-delete`` in ``find . -delete`` but not in ``pre-delete``."""
    start = text.find(literal)
    while start >= 0:
        if start == 0 or not text[start - 1].isalnum():
            return True
        start = text.find(literal, start + 1)
    return False


def fold_keeping_case(text):
    """:func:`fold` without lower-casing: for a keyword written in capitals, searched as written."""
    return " " + " ".join(text.translate(_FOLD).split()) + " "


def any_in(folded_keywords, folded_text):
    """The first folded keyword found in the folded text, or None."""
    for keyword in folded_keywords:
        if keyword in folded_text:
            return keyword
    return None


def in_command(folded_keyword, words):
    """True if the keyword is, in order, made of whole shell words of one simple command.

    ``words`` are that command's shell words, each folded on its own (so
    ``--force`` is ``" force "`` and ``feature/f`` is ``" feature f "``);
    other words may come between the keyword's, but a keyword word never
    matches part of a shell word: ``"push -f"`` does not match
    ``git push origin feature/f``.
    """
    rest = folded_keyword
    for word in words:
        if rest.startswith(word):
            rest = rest[len(word) - 1 :]
            if rest == " ":
                return True
    return False


def any_in_command(folded_keywords, commands):
    """The first folded keyword found by :func:`in_command` in any of ``commands``, or None."""
    for keyword in folded_keywords:
        for words in commands:
            if in_command(keyword, words):
                return keyword
    return None
