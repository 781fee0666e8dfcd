"""What a process-knowledge node is, checked with the standard library alone.

The pydantic models in :mod:`forewarn.schema` are the documented schema (and
the source of ``docs/schemas/*.json``); this module is the hooks' own check
of the same rules, so a hook never needs pydantic.  A test keeps the two in
agreement.

A process node is a graph node with ``type == "Concept"`` and a
``process_type``.  Other nodes (entities, episodes, whatever the original
design or another tool wrote) are carried along untouched and ignored.
"""

from .globs import GlobError, compile_glob

PRIORITY_MULTIPLIER = {"CRITICAL": 2.0, "HIGH": 1.5, "MEDIUM": 1.0, "LOW": 0.5}
PRIORITY_RANK = {"CRITICAL": 0, "HIGH": 1, "MEDIUM": 2, "LOW": 3}
PROCESS_TYPES = ("checklist", "pattern", "warning", "requirement")
STATUSES = ("draft", "active", "archived")
TRIGGER_LISTS = ("tool_names", "file_patterns", "action_keywords", "context_keywords", "triad_names")
CONTENT_FIELDS = {
    "checklist": ("title", "items", "format"),
    "pattern": ("situation", "action", "rationale", "example"),
    "warning": ("risk", "severity", "detection", "mitigation"),
    "requirement": ("constraint", "rationale", "validation"),
}


def is_process_node(node):
    """True for nodes forewarn owns: ``type: "Concept"`` with a ``process_type`` key."""
    return isinstance(node, dict) and node.get("type") == "Concept" and "process_type" in node


def status_of(node):
    """The lifecycle state; a node written before statuses existed is active."""
    status = node.get("status")
    return "active" if status is None else status


def triggers_of(node):
    """``trigger_conditions`` as a dict of lists (missing lists are empty)."""
    raw = node.get("trigger_conditions") or {}
    return {key: list(raw.get(key) or ()) for key in TRIGGER_LISTS}


def checklist_item_text(item):
    """A checklist entry's text: plain strings, or ``{item, required, file}`` objects of the original design."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        text = item.get("item") or item.get("text") or ""
        return text if isinstance(text, str) else ""
    return ""


def _checklist_object_problems(items):
    """Type problems of the ``{item, required, file}`` fields of checklist entry objects."""
    found = []
    for index, entry in enumerate(items):
        if not isinstance(entry, dict):
            continue
        for field, kind, name in (("item", str, "a string"), ("required", bool, "true or false"), ("file", str, "a string")):
            if entry.get(field) is not None and not isinstance(entry[field], kind):
                found.append("checklist.items[%d].%s: must be %s" % (index, field, name))
    return found


def problems(node):
    """Every reason ``node`` is not a usable process node, as ``"field: message"`` strings.

    An empty list means the node is valid.  Unknown extra fields are allowed
    (they are preserved on write), so this only checks what forewarn reads.
    """
    found = []
    node_id = node.get("id")
    if not isinstance(node_id, str) or not node_id.strip():
        found.append("id: must be a non-empty string")
    label = node.get("label")
    if not isinstance(label, str) or not label.strip():
        found.append("label: must be a non-empty string")
    for field in ("description", "created_by", "created_at"):
        if field in node and node[field] is not None and not isinstance(node[field], str):
            found.append("%s: must be a string" % field)
    ptype = node.get("process_type")
    if not isinstance(ptype, str) or ptype not in PROCESS_TYPES:  # a list or object is unhashable: test the type first
        found.append("process_type: must be one of %s, not %r" % ("|".join(PROCESS_TYPES), ptype))
    priority = node.get("priority", "MEDIUM")
    if not isinstance(priority, str) or priority not in PRIORITY_MULTIPLIER:
        found.append("priority: must be one of CRITICAL|HIGH|MEDIUM|LOW, not %r" % (priority,))
    status = node.get("status")
    if status is not None and status not in STATUSES:
        found.append("status: must be one of draft|active|archived, not %r" % (status,))
    trig = node.get("trigger_conditions")
    if trig is not None and not isinstance(trig, dict):
        found.append("trigger_conditions: must be an object")
    elif trig:
        for key in TRIGGER_LISTS:
            value = trig.get(key)
            if value is None:
                continue
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                found.append("trigger_conditions.%s: must be a list of strings" % key)
            elif key == "file_patterns":
                for pattern in value:
                    try:
                        compile_glob(pattern)
                    except GlobError as exc:
                        found.append("trigger_conditions.file_patterns: %r is not a usable glob (%s)" % (pattern, exc))
    confidence = node.get("confidence")
    if confidence is not None and (
        isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1
    ):
        found.append("confidence: must be a number from 0 to 1")
    occurrences = node.get("occurrences")
    if occurrences is not None and (type(occurrences) is not int or occurrences < 1):
        found.append("occurrences: must be a whole number of at least 1")
    evidence = node.get("evidence")
    if evidence is not None and not isinstance(evidence, (list, str)):
        found.append("evidence: must be a list or a string")
    if isinstance(ptype, str) and ptype in CONTENT_FIELDS:
        block = node.get(ptype)
        if not isinstance(block, dict):
            found.append("%s: a %s node needs a %s object" % (ptype, ptype, ptype))
        elif ptype == "checklist":
            items = block.get("items")
            if not isinstance(items, list) or not items:
                found.append("checklist.items: must be a non-empty list")
            else:
                if not all(checklist_item_text(i) for i in items):
                    found.append("checklist.items: each item is a non-empty string or an object with 'item'")
                found.extend(_checklist_object_problems(items))
            for field in ("title", "format"):
                if block.get(field) is not None and not isinstance(block[field], str):
                    found.append("checklist.%s: must be a string" % field)
        else:
            present = [f for f in CONTENT_FIELDS[ptype] if block.get(f) not in (None, "")]
            if not present:
                found.append("%s: needs at least one of %s" % (ptype, ", ".join(CONTENT_FIELDS[ptype])))
            for field in CONTENT_FIELDS[ptype]:
                if block.get(field) is not None and not isinstance(block[field], str):
                    found.append("%s.%s: must be a string" % (ptype, field))
    return found
