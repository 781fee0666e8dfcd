"""The YAML subset of ``[PROCESS_KNOWLEDGE]`` blocks, parsed without PyYAML.

Supported: nested mappings by indentation, block lists (``- item``, also
lists of mappings), flow lists (``[Write, Edit]``), single- and double-quoted
and plain scalars (a plain scalar may wrap onto more-indented lines, which
are folded with spaces), ``key: |`` literal and ``key: >`` folded blocks,
``#`` comments, and the scalars true/false/null and numbers.  Anything else
raises :class:`YamlError` with the line number.

Written by a model, not a YAML library, a block also gets: ``key = value``
lines read as ``key: value``, numbered items (``1. Bump the version``) read
as ``- `` items, and a ``#`` glued to a word ("fixes #123", "#includes")
kept as text: only ``#`` before a space or at the end of a line starts a
comment.
"""

import re

ASSIGNMENT = re.compile(r"([A-Za-z_][\w.-]*)\s*=\s*(.*)$")  # "trigger_conditions.tools = [Edit]": a dotted key too
NUMBERED = re.compile(r"\d{1,3}[.)]\s+")
BOLD_HEADING = re.compile(r"^\*\*([A-Za-z][\w -]*)\*\*\s*$")
PROSE_WORDS = 4  # a top-level line of this many words with no key is a paragraph, not a typo in a key
TASK_BOX = re.compile(r"\[[ xX]\]\s+")  # "- [ ] Check the entitlement": a markdown task list item


class YamlError(ValueError):
    """The text is not in the supported YAML subset."""


def _unquoted(text):
    """``(index, char)`` for every character of ``text`` outside single or double quotes (quotes excluded)."""
    quote = None
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        else:
            yield i, c


def _strip_comment(line):
    for i, c in _unquoted(line):
        if c == "#" and (not line[:i].strip() or line[i - 1] in " \t" and line[i + 1 : i + 2] in ("", " ", "\t", "#")):
            return line[:i].rstrip()
    return line.rstrip()


def _split_flow(body):
    items, depth, quote, current = [], 0, None, []
    for c in body:
        if quote:
            current.append(c)
            if c == quote:
                quote = None
            continue
        if c in "'\"":
            quote = c
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        elif c == "," and depth == 0:
            items.append("".join(current))
            current = []
            continue
        current.append(c)
    if "".join(current).strip():
        items.append("".join(current))
    return items


def scalar(text):
    """A plain or quoted scalar, or a flow list."""
    text = text.strip()
    if not text:
        return ""
    if text[0] == "[":
        if not text.endswith("]"):
            raise YamlError("unclosed flow list: %s" % text)
        return [scalar(part) for part in _split_flow(text[1:-1]) if part.strip()]
    if text[0] in "'\"":
        if len(text) < 2 or text[-1] != text[0]:
            if text.find(text[0], 1) > 0:
                return text  # '"Deploy" means staging unless …': a quoted word that opens plain text
            raise YamlError("unclosed quote: %s" % text)
        inner = text[1:-1]
        return inner.replace("''", "'") if text[0] == "'" else inner.replace('\\"', '"').replace("\\n", "\n")
    lowered = text.lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if lowered in ("null", "~"):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def parse(text):
    """Parse ``text`` into dicts, lists and scalars; YamlError if it is not the supported subset."""
    lines = []
    for number, raw in enumerate(text.replace("\t", "    ").splitlines(), 1):
        line = _strip_comment(raw)
        if line.strip() in ("", "---", "..."):
            if lines and lines[-1][2] == "literal":
                lines.append((number, 0, "blank", ""))
            continue
        indent = len(line) - len(line.lstrip(" "))
        lines.append((number, indent, "line", line.strip()))
    if not any(kind == "line" for _n, _i, kind, _t in lines):
        raise YamlError("empty document")
    value, pos = _block(lines, 0, lines[0][1])
    if pos != len(lines):
        raise YamlError("line %d: unexpected indentation" % lines[pos][0])
    return value


def _item(text):
    """The text after a list item's marker (``- ``, ``1.``, and a markdown task box ``- [ ]`` / ``- [x]``), or
    None when ``text`` is no list item."""
    if text.startswith("- ") or text == "-":
        rest = text[1:].strip()
    else:
        numbered = NUMBERED.match(text)
        if not numbered:
            return None
        rest = text[numbered.end():].strip()
    task_box = TASK_BOX.match(rest)
    return rest[task_box.end():] if task_box else rest


def _block(lines, pos, indent):
    if _item(lines[pos][3]) is not None:
        return _list(lines, pos, indent)
    return _mapping(lines, pos, indent)


def _literal(lines, pos, indent):
    collected = []
    while pos < len(lines) and (lines[pos][2] == "blank" or lines[pos][1] > indent):
        collected.append(lines[pos])
        pos += 1
    while collected and collected[-1][2] == "blank":
        collected.pop()
    if not collected:
        return "", pos
    base = min(i for _n, i, kind, _t in collected if kind == "line")
    return "\n".join(" " * (i - base) + t if kind == "line" else "" for _n, i, kind, t in collected), pos


def _plain(lines, pos, indent, rest):
    """A scalar and the position after it, folding the more-indented lines of a wrapped plain scalar."""
    pos += 1
    if rest[:1] in ("'", '"', "[", "{") or pos >= len(lines) or lines[pos][2] != "line" or lines[pos][1] <= indent:
        return scalar(rest), pos
    parts = [rest]
    while pos < len(lines) and lines[pos][2] == "line" and lines[pos][1] > indent:
        number, _ind, _kind, text = lines[pos]
        if _item(text) is not None or _looks_like_key(text):
            raise YamlError("line %d: unexpected indentation" % number)
        parts.append(text)
        pos += 1
    return " ".join(parts), pos


def _value_after_key(lines, pos, indent, rest):
    if rest in ("|", ">", "|-", ">-", "|+", ">+"):
        text, pos = _literal(lines, pos + 1, indent)
        return (text if rest.startswith("|") else " ".join(text.split())), pos
    if rest:
        return _plain(lines, pos, indent, rest)
    if pos + 1 < len(lines) and lines[pos + 1][1] > indent:
        return _block(lines, pos + 1, lines[pos + 1][1])
    if pos + 1 < len(lines) and lines[pos + 1][1] == indent and _item(lines[pos + 1][3]) is not None:
        return _list(lines, pos + 1, indent)
    return None, pos + 1


def _split_key(number, text):
    for i, c in _unquoted(text):
        if c != ":":
            continue
        end = i + 1
        if text[:1] in "*_":
            while end < len(text) and text[end] in "*_":
                end += 1  # "**Type:** process": the emphasis closes after the colon
        if end == len(text) or text[end] == " ":
            key = text[:i].strip().strip("'\"")
            if not key:
                break
            return key, text[end:].strip()
    assignment = ASSIGNMENT.match(text)
    if assignment:
        return assignment.group(1), assignment.group(2).strip()
    raise YamlError("line %d: expected 'key: value', got %r" % (number, text))


def _mapping(lines, pos, indent):
    result = {}
    while pos < len(lines):
        number, ind, kind, text = lines[pos]
        if kind == "blank":
            pos += 1
            continue
        if ind < indent:
            break
        if ind > indent:
            raise YamlError("line %d: unexpected indentation" % number)
        if _item(text) is not None:
            break
        try:
            key, rest = _split_key(number, text)
        except YamlError:
            heading = BOLD_HEADING.match(text)
            if heading:
                key, rest = heading.group(1), ""  # "**trigger_conditions**" over its lines: a key in markdown
            elif indent == 0 and len(text.split()) >= PROSE_WORDS:
                # a paragraph written between the keys says what the lesson is about: it joins the description
                result["description"] = (str(result.get("description") or "") + " " + text).strip()
                pos += 1
                continue
            else:
                raise
        result[key], pos = _value_after_key(lines, pos, indent, rest)
    return result, pos


def _list(lines, pos, indent):
    result = []
    while pos < len(lines):
        number, ind, kind, text = lines[pos]
        if kind == "blank":
            pos += 1
            continue
        rest = _item(text)
        if ind < indent or rest is None:
            break
        if ind > indent:
            raise YamlError("line %d: unexpected indentation" % number)
        if not rest:
            if pos + 1 < len(lines) and lines[pos + 1][1] > indent:
                value, pos = _block(lines, pos + 1, lines[pos + 1][1])
            else:
                value, pos = None, pos + 1
            result.append(value)
            continue
        if _looks_like_key(rest):
            # "- key: value" starts a mapping whose keys are indented past the dash
            inner = indent + (len(text) - len(rest))
            sub = [(number, inner, "line", rest)]
            j = pos + 1
            while j < len(lines) and (lines[j][2] == "blank" or lines[j][1] >= inner):
                sub.append(lines[j])
                j += 1
            value, used = _mapping(sub, 0, inner)
            if used != len(sub):
                raise YamlError("line %d: unexpected indentation" % sub[used][0])
            result.append(value)
            pos = j
            continue
        value, pos = _plain(lines, pos, indent, rest)
        result.append(value)
    return result, pos


def _looks_like_key(text):
    if text[:1] in "'\"[":
        return False
    try:
        key, _rest = _split_key(0, text)
    except YamlError:
        return False
    return key.replace("_", "").replace("-", "").isalnum()
