"""``[PROCESS_KNOWLEDGE] … [/PROCESS_KNOWLEDGE]`` blocks written by the assistant.

The body is the YAML subset of :mod:`forewarn.learning.yamlish` (the
original design's format) or a JSON object.  :func:`find_blocks` returns
``(fields, error)`` per block; :func:`to_node_fields` maps the block's keys
onto a node's (``type`` → ``process_type``, content blocks, triggers),
filling what it can infer and reporting what it cannot.  The format is
documented in docs/process-knowledge.md.
"""

import json
import re

from ..knowledge import CONTENT_FIELDS as CONTENT_KEYS
from ..knowledge import PRIORITY_MULTIPLIER
from ..knowledge import TRIGGER_LISTS as TRIGGER_KEYS
from . import yamlish
from .lazy_regex import lazy

# A block runs from the last opening marker before its closing one: "here is a [PROCESS_KNOWLEDGE] block:" in
# prose before the real block must not swallow it.
BLOCK = lazy(r"\[PROCESS_KNOWLEDGE\]((?:(?!\[PROCESS_KNOWLEDGE\]).)*?)\[/PROCESS_KNOWLEDGE\]", re.S)
FENCE_LINE = lazy(r"^\s*(```|~~~)[\w-]*\s*$")
TYPES = {"checklist": "checklist", "pattern": "pattern", "warning": "warning", "requirement": "requirement",
         "check": "checklist", "rule": "requirement", "constraint": "requirement", "risk": "warning"}
PRIORITIES = tuple(PRIORITY_MULTIPLIER)
# Names a block's author may use for the trigger lists: "tools: [Bash]", "keywords: [cansend]", "files: [...]".
TRIGGER_ALIASES = {"tool_names": ("tools", "tool"), "file_patterns": ("files", "file_globs", "globs", "paths"),
                   "action_keywords": ("keywords", "actions"), "context_keywords": ("context",), "triad_names": ()}


def _body(raw):
    lines = [ln for ln in raw.strip("\n").splitlines() if not FENCE_LINE.match(ln)]
    return "\n".join(lines).strip("\n")


def find_blocks(text):
    """``[(fields dict or None, error or None, raw body)]`` for every block in ``text``.

    An empty or one-line body without a colon is the markers named in
    prose, not a block, and is skipped without an error.
    """
    found = []
    if not text or "[PROCESS_KNOWLEDGE]" not in text:
        return found
    for match in BLOCK.finditer(text):
        body = _body(match.group(1))
        if "\n" not in body.strip() and ":" not in body:
            continue  # "between `[PROCESS_KNOWLEDGE]` and `[/PROCESS_KNOWLEDGE]`": the markers named in prose
        try:
            fields = _json_body(body) if body.lstrip().startswith("{") else yamlish.parse(body)
        except (ValueError, yamlish.YamlError) as exc:
            fields = _toml_body(body)
            if fields is None:
                found.append((None, "malformed [PROCESS_KNOWLEDGE] block: %s" % exc, body))
                continue
        fields = _pairs_as_mapping(fields)
        if not isinstance(fields, dict):
            found.append((None, "a [PROCESS_KNOWLEDGE] block holds a mapping, not %s" % type(fields).__name__, body))
            continue
        found.append((_split_piped(fields), None, body))
    return found


def _pairs_as_mapping(fields):
    """A body written as a markdown list of keys ("- type: pitfall", "- priority: HIGH", "- checklist:" …) is the
    mapping those keys make; any other value is returned as it is."""
    if isinstance(fields, list) and fields and all(isinstance(f, dict) and len(f) == 1 for f in fields):
        merged = {}
        for pair in fields:
            merged.update(pair)
        return merged
    return fields


# "Type: workflow | Priority: HIGH": two keys on one line, split at a bar before a word and a colon.
PIPED_KEY = lazy(r"\s+\|\s+([A-Za-z][\w ]{0,30}?)\s*:\s*")


def _split_piped(fields):
    """``fields`` with the keys written after a bar in a top-level value ("workflow | Priority: HIGH") as keys of
    their own, where the block does not also give them."""
    for key, value in list(fields.items()):
        if not isinstance(value, str) or "|" not in value:
            continue
        parts = PIPED_KEY.split(value)
        if len(parts) < 3:
            continue
        fields[key] = parts[0].strip()
        for name, extra in zip(parts[1::2], parts[2::2]):
            fields.setdefault(name.strip(), extra.strip())
    return fields


# A backslash JSON does not know ("grep 'print_r\|var_export'", a Windows path): written by the assistant, meant
# literally.  Kept as a backslash when strict parsing fails on it.
STRAY_BACKSLASH = lazy(r'\\(?![\\"/bfnrtu])')


def _json_body(body):
    try:
        return json.loads(body)
    except ValueError as exc:
        if "escape" not in str(exc):
            raise
        return json.loads(STRAY_BACKSLASH.sub(r"\\\\", body))


TOML_TABLE = lazy(r"^\s*\[[A-Za-z_][\w.-]*\]\s*$", re.M)


def _toml_body(body):
    """A body written as TOML (``[trigger_conditions]`` tables, ``key = "value"``), read with the standard
    library's ``tomllib`` (Python 3.11+); None when it is not TOML or ``tomllib`` is missing."""
    if not TOML_TABLE.search(body):
        return None
    try:
        import tomllib
    except ImportError:
        return None
    try:
        return tomllib.loads(body)
    except (ValueError, TypeError):
        return None


def _as_list(value):
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return [str(value)]


def _checklist_item(item):
    if isinstance(item, dict):
        if "item" in item or "text" in item:
            return item
        if len(item) == 1:  # "- Run tests: pytest -q" read as a mapping
            key, value = next(iter(item.items()))
            return "%s: %s" % (key, value)
    return str(item)


def _key(name):
    """"**Trigger conditions**" → "trigger_conditions": the field names a model writes, as the schema spells them."""
    return str(name).strip().strip("*_`").strip().lower().replace(" ", "_").replace("-", "_")


def _normalised(value):
    """``value`` with every mapping key in schema spelling (:func:`_key`), nested mappings and lists included; a
    dotted key (``trigger_conditions.tools``, ``checklist.items``) is the nested mapping it names."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            head, dot, rest = str(k).partition(".")
            if dot and rest and isinstance(out.get(_key(head), {}), dict):
                out.setdefault(_key(head), {})[_key(rest)] = _normalised(v)
            else:
                out[_key(k)] = _normalised(v)
        return out
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    return value


TRIGGER_NAMES = frozenset(TRIGGER_KEYS) | {a for names in TRIGGER_ALIASES.values() for a in names}
# "tools [Bash, Write]; files workflow/envs/*.yaml", "tools = Edit, Write; file_patterns = src/server/**": the
# trigger lists written on one line.
INLINE_TRIGGER = lazy(r"^\s*([A-Za-z][\w -]*?)\s*(?:=|:|(?=\[))\s*(.+?)\s*$")


# "Edit, Write, MultiEdit on `web/app/themes/*/resources/**`": the tools, then the files they act on.
TOOLS_ON_FILES = lazy(r"^\s*((?:[A-Z]\w+|mcp__\w+)(?:\s*(?:,|/|\band\b|\bor\b)\s*(?:[A-Z]\w+|mcp__\w+))*)\s+(?:on|for|in|under)\s+(.+?)\s*$")
TOOL_SEPARATOR = lazy(r"\s*(?:,|/|\band\b|\bor\b)\s*")


def _inline_triggers(text):
    """The trigger lists of a one-line ``trigger_conditions`` (``{}`` when it is not one)."""
    tools_on_files = TOOLS_ON_FILES.match(text) if ";" not in text else None
    files = [f.strip().strip("`'\"") for f in tools_on_files.group(2).split(",")] if tools_on_files else []
    if files and all(f and any(mark in f for mark in "/*.") for f in files):  # paths or globs, not "deploy scripts"
        return {"tool_names": [t for t in TOOL_SEPARATOR.split(tools_on_files.group(1)) if t],
                "file_patterns": [f for f in files if f]}
    found = {}
    for part in text.split(";"):
        match = INLINE_TRIGGER.match(part)
        name, _space, rest = part.strip().partition(" ")
        if match:
            name, values = match.group(1), match.group(2).strip()
        elif _key(name) in TRIGGER_NAMES and rest.strip():
            values = rest.strip()  # "files workflow/envs/*.yaml"
        else:
            continue
        if values.startswith("[") and values.endswith("]"):
            values = values[1:-1]
        found[_key(name)] = [v.strip().strip("'\"") for v in values.split(",") if v.strip()]
    return found


def _trigger(key, triggers, fields):
    """A trigger list by its name or an alias, from ``trigger_conditions`` or else the block's top level."""
    for source in (triggers, fields):
        for name in (key,) + TRIGGER_ALIASES.get(key, ()):
            if source.get(name) not in (None, "", []):
                return source[name]
    return None


def to_node_fields(fields):
    """``(node fields, problems)``: the block's content in node form; problems name what was missing."""
    problems = []
    fields = _normalised(fields)
    ptype = TYPES.get(str(fields.get("type") or fields.get("process_type") or "").strip().lower())
    written = next((t for t in CONTENT_KEYS if isinstance(fields.get(t), (dict, list))), None)
    if ptype is None or written is not None and not fields.get(ptype):
        ptype = written  # "type: rule" over a checklist: the content written decides, it is what would be lost
    if ptype is None:
        ptype = "checklist" if fields.get("items") else "pattern"
    priority = str(fields.get("priority") or "MEDIUM").strip().upper()
    if priority not in PRIORITIES:
        problems.append("priority %r is not CRITICAL|HIGH|MEDIUM|LOW; MEDIUM used" % fields.get("priority"))
        priority = "MEDIUM"
    trig_in = fields.get("trigger_conditions") or fields.get("triggers") or {}
    if isinstance(trig_in, str):
        trig_in = _inline_triggers(trig_in)
    if isinstance(trig_in, list) and all(isinstance(t, dict) for t in trig_in):
        trig_in = {k: v for t in trig_in for k, v in t.items()}  # "Triggers:" then "- tools: Edit", "- files: …"
    if not isinstance(trig_in, dict):
        trig_in = {}
    triggers = {key: _as_list(_trigger(key, trig_in, fields)) for key in TRIGGER_KEYS}
    description = str(fields.get("description") or "").strip()
    block = fields.get(ptype)
    if ptype == "checklist":
        if isinstance(block, list) and len(block) == 1 and isinstance(block[0], dict) and "items" in block[0]:
            block = block[0]  # "**checklist**" then "- items:" and the numbered steps under it
        if isinstance(block, (list, str)):
            block = {"items": block}
        block = dict(block) if isinstance(block, dict) else {}
        items = block.get("items") or fields.get("items") or []
        if isinstance(items, str):
            items = [items]
        block["items"] = [_checklist_item(i) for i in items if i not in (None, "")]
        if not block["items"] and description:
            block["items"] = [description]
        block.setdefault("format", "markdown")
    else:
        main = CONTENT_KEYS[ptype][0 if ptype != "pattern" else 1]  # risk, action, constraint
        if isinstance(block, str) and block.strip():
            block = {main: block.strip()}  # "warning": "Renaming a resource …": the text is the warning
        block = dict(block) if isinstance(block, dict) else {}
        for key in CONTENT_KEYS[ptype]:
            if key not in block and isinstance(fields.get(key), str):
                block[key] = fields[key]
        if not any(block.get(k) for k in CONTENT_KEYS[ptype]):
            fallback = description or str(fields.get("label") or fields.get("title") or "").strip()
            if fallback:
                block[main] = fallback
                if not description:
                    problems.append("no %s content; the label was used" % ptype)
    for key in list(block):
        if isinstance(block[key], (int, float, bool)) and key != "required":
            block[key] = str(block[key])
    label = str(fields.get("label") or fields.get("title") or block.get("title") or "").strip()
    if not label:
        label = (description or str(block.get("items", [""])[0] if block.get("items") else ""))[:80]
        problems.append("no label; one was made from the content")
    node = {
        "label": label,
        "description": description,
        "process_type": ptype,
        "priority": priority,
        "trigger_conditions": triggers,
        ptype: block,
    }
    return node, problems
