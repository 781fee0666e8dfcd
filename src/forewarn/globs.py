"""Gitignore-style file globs, compiled once and matched without :mod:`re`.

Semantics follow git's ``gitignore`` (and :mod:`pathspec`'s ``GitIgnoreSpec``,
which the tests use as the oracle):

* a pattern with no slash, or only a trailing one, matches at any depth
  (``plugin.json`` is ``**/plugin.json``); any other slash anchors it to the
  project root (a leading slash is dropped);
* ``*`` and ``?`` do not cross ``/``; ``[abc]``, ``[a-z]``, ``[!a]`` are
  character classes (an unclosed ``[`` is an error: git would match
  nothing); a backslash escapes the next character;
* ``**`` as a whole segment matches zero or more folders; elsewhere it is ``*``;
* a pattern that matches a folder matches everything below it; a trailing
  slash matches folders only;
* ``!pattern`` negates: in a list, the last pattern that matches decides,
  even below a folder an earlier pattern matched (git cannot re-include a
  file whose folder is excluded; a trigger can);
* two additions for authors: ``./x`` means ``/x`` (the project root), and
  leading white space is dropped like trailing white space (an escaped
  trailing space, ``\\ ``, is kept, as in git).

A compiled pattern is plain tuples and strings so the index can store it
with :mod:`marshal`; :func:`match_any` is what the hot path calls.
"""

DOUBLESTAR = 0
_ANY = 1  # '*'
_ONE = 2  # '?'
_SET = 3  # ('[...]', negated, chars, ranges)


class GlobError(ValueError):
    """The pattern is not a usable gitignore-style glob."""


def _compile_segment(seg):
    """A segment as a literal string, or a tuple of tokens if it has wildcards."""
    tokens = []
    literal = []
    i, n = 0, len(seg)
    wild = False
    while i < n:
        c = seg[i]
        if c == "\\":
            if i + 1 >= n:
                raise GlobError("trailing backslash")
            literal.append(seg[i + 1])
            i += 2
            continue
        if c in "*?[":
            if c == "[":
                end = _class_end(seg, i)
                if end < 0:  # git's wildmatch matches nothing then; say so instead
                    raise GlobError("unclosed '[' (write \\[ for a literal bracket)")
            if literal:
                tokens.append("".join(literal))
                literal = []
            wild = True
            if c == "*":
                while i < n and seg[i] == "*":
                    i += 1
                tokens.append(_ANY)
                continue
            if c == "?":
                tokens.append(_ONE)
                i += 1
                continue
            tokens.append(_parse_class(seg[i + 1 : end]))
            i = end + 1
            continue
        literal.append(c)
        i += 1
    if literal:
        tokens.append("".join(literal))
    if not wild:
        return "".join(t for t in tokens)
    return tuple(tokens)


def _class_end(seg, start):
    i = start + 1
    if i < len(seg) and seg[i] in "!^":
        i += 1
    if i < len(seg) and seg[i] == "]":
        i += 1
    while i < len(seg):
        if seg[i] == "\\":
            i += 2
            continue
        if seg[i] == "]":
            return i
        i += 1
    return -1


def _parse_class(body):
    negated = False
    if body[:1] in ("!", "^"):
        negated, body = True, body[1:]
    chars, ranges = [], []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            c = body[i + 1]
            i += 1
        if i + 2 < len(body) and body[i + 1] == "-":
            hi = body[i + 2]
            if hi == "\\" and i + 3 < len(body):
                hi = body[i + 3]
                i += 1
            ranges.append((c, hi))
            i += 3
            continue
        chars.append(c)
        i += 1
    return (_SET, negated, "".join(chars), tuple(ranges))


_compiled = {}


def compile_glob(pattern):
    """Compile one pattern to ``(negated, dir_only, segments)``; raise GlobError if unusable.

    Results are memoised: an index build meets the same patterns many times.
    """
    if not isinstance(pattern, str):
        raise GlobError("pattern is not a string")
    compiled = _compiled.get(pattern)
    if compiled is None:
        compiled = _compiled[pattern] = _compile(pattern)
    return compiled


def _compile(pattern):
    if not isinstance(pattern, str):
        raise GlobError("pattern is not a string")
    pat = pattern.strip()
    if pattern != pattern.rstrip() and (len(pat) - len(pat.rstrip("\\"))) % 2:
        pat += " "  # an odd run of backslashes escapes the first trailing space, as in git
    if not pat or pat.startswith("#"):
        raise GlobError("empty pattern")
    negated = pat.startswith("!")
    if negated:
        pat = pat[1:]
    if pat.startswith("./"):  # not git syntax, but what an author means: relative to the project root
        pat = "/" + pat[2:]
    dir_only = pat.endswith("/")
    pat = pat.rstrip("/")
    if not pat:
        raise GlobError("pattern names no file")
    anchored = "/" in pat
    pat = pat.lstrip("/")
    parts = [p for p in pat.split("/") if p != ""]
    segments = []
    for part in parts:
        if part == "**":
            if segments and segments[-1] == DOUBLESTAR:
                continue
            segments.append(DOUBLESTAR)
        else:
            segments.append(_compile_segment(part))
    if len(segments) > 1 and segments[-1] == DOUBLESTAR:
        segments.pop()  # "dir/**" is everything inside dir, not dir itself: the same as "dir/"
        dir_only = True
    if not anchored and segments[0] != DOUBLESTAR:
        segments.insert(0, DOUBLESTAR)
    return (negated, dir_only, tuple(segments))


def _match_tokens(tokens, text, ti=0, si=0):
    n = len(tokens)
    while ti < n:
        tok = tokens[ti]
        if tok.__class__ is str:
            if not text.startswith(tok, si):
                return False
            si += len(tok)
        elif tok == _ANY:
            if ti + 1 == n:
                return True
            for start in range(si, len(text) + 1):
                if _match_tokens(tokens, text, ti + 1, start):
                    return True
            return False
        elif tok == _ONE:
            if si >= len(text):
                return False
            si += 1
        else:
            if si >= len(text):
                return False
            c = text[si]
            hit = c in tok[2] or any(lo <= c <= hi for lo, hi in tok[3])
            if hit == tok[1]:
                return False
            si += 1
        ti += 1
    return si == len(text)


def _match_segment(seg, name):
    if seg.__class__ is str:
        return seg == name
    return _match_tokens(seg, name)


def _match_from(segments, parts, gi, pi):
    """Does ``segments[gi:]`` match a prefix ``parts[pi:k]`` for some k?  Returns the set of such k."""
    ends = set()
    ng, np_ = len(segments), len(parts)
    if gi == ng:
        ends.add(pi)
        return ends
    seg = segments[gi]
    if seg == DOUBLESTAR:
        for start in range(pi, np_ + 1):
            ends |= _match_from(segments, parts, gi + 1, start)
        return ends
    if pi < np_ and _match_segment(seg, parts[pi]):
        return _match_from(segments, parts, gi + 1, pi + 1)
    return ends


def match_compiled(compiled, parts):
    """True if the compiled pattern (ignoring negation) matches the path split in ``parts``."""
    _neg, dir_only, segments = compiled
    ends = _match_from(segments, parts, 0, 0)
    if not ends:
        return False
    if dir_only:
        return any(0 < k < len(parts) for k in ends)
    return any(0 < k <= len(parts) for k in ends)


def match_any(compiled_list, parts):
    """Gitignore list semantics: the last pattern that matches decides; no match is False."""
    result = False
    for compiled in compiled_list:
        if compiled[0] != result:  # a positive pattern when already matched, or a negation when not: no change
            continue
        if match_compiled(compiled, parts):
            result = not compiled[0]
    return result


def index_keys(compiled):
    """How the index finds this pattern: ``("n", literal)``, ``("e", ".ext")`` or ``("g", "")``.

    Any path the pattern matches contains a folder or file named by the last
    literal segment, or a segment ending in the extension, so looking those
    up per path segment finds every candidate.  A wildcard segment that ends
    in literal text with a dot (``*.py``, ``test_*.py``, ``[a-m]*.ts``) ends
    every name it matches, so that name's extension is the text's.
    """
    for seg in reversed(compiled[2]):
        if seg == DOUBLESTAR:
            continue
        if seg.__class__ is str:
            return ("n", seg)
        if seg[-1].__class__ is str and "." in seg[-1]:
            return ("e", extension(seg[-1]))
        return ("g", "")
    return ("g", "")


def extension(name):
    """The lookup extension of a path segment (``.json`` for ``plugin.json``, ``.env`` for ``.env``), or ''."""
    dot = name.rfind(".")
    return name[dot:] if dot >= 0 else ""
