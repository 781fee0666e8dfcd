"""How a knowledge item reads when it is put in front of the model.

Contract: :func:`render_item` turns a valid process node into a short,
factual, priority-marked text (no imperative "system" phrasing, which can
trip prompt-injection defences); :func:`fence` wraps the chosen items as
reference data within a character budget, cutting the last item rather than
exceeding it.  Pure functions over plain data; used at index-build time so
the hot path only concatenates pre-rendered strings.
"""

OPEN_TAG = "<forewarn-knowledge>"
CLOSE_TAG = "</forewarn-knowledge>"


def _line(prefix, value):
    value = " ".join(str(value).split()) if value not in (None, "") else ""
    return prefix + value if value else None


def render_item(node):
    """``[PRIORITY] label (type, id)`` followed by the content block, one fact per line."""
    from .knowledge import checklist_item_text  # build time only; fence() is on the hot path

    ptype = node.get("process_type")
    lines = ["[%s] %s (%s %s)" % (node.get("priority", "MEDIUM"), " ".join(node["label"].split()), ptype, node["id"])]
    block = node.get(ptype) or {}
    if ptype == "checklist":
        title = _line("", block.get("title"))
        if title and title != " ".join(node["label"].split()):
            lines.append(title)
        for item in block.get("items") or ():
            text = " ".join(checklist_item_text(item).split())
            extra = ""
            if isinstance(item, dict):
                if item.get("file"):
                    extra += " (" + str(item["file"]) + ")"
                if item.get("required") is False:
                    extra += " (optional)"
            lines.append("- [ ] " + text + extra)
    elif ptype == "pattern":
        for prefix, key in (("When: ", "situation"), ("Do: ", "action"), ("Why: ", "rationale"), ("Example: ", "example")):
            lines.append(_line(prefix, block.get(key)))
    elif ptype == "warning":
        for prefix, key in (("Risk: ", "risk"), ("Severity: ", "severity"), ("Detect: ", "detection"), ("Mitigate: ", "mitigation")):
            lines.append(_line(prefix, block.get(key)))
    elif ptype == "requirement":
        for prefix, key in (("Must: ", "constraint"), ("Why: ", "rationale"), ("Check: ", "validation")):
            lines.append(_line(prefix, block.get(key)))
    if len(lines) == 1 and node.get("description"):
        lines.append(_line("", node["description"]))
    return "\n".join(line for line in lines if line)


def fence(heading, texts, budget):
    """Join rendered items under ``heading`` inside the fence, at most ``budget`` characters.

    Items are kept whole while they fit; the first that does not fit is cut
    after its last whole line that fits, with a marker (dropped if not even
    its first line fits), and the rest are dropped.  Returns "" if not even
    the first item's first line fits.
    """
    head = heading + "\n" + OPEN_TAG + "\n"
    tail = "\n" + CLOSE_TAG
    room = budget - len(head) - len(tail)
    parts = []
    for text in texts:
        sep = "\n\n" if parts else ""
        need = len(sep) + len(text)
        if need <= room:
            parts.append(sep + text)
            room -= need
            continue
        marker = "\n[... cut to fit the budget]"
        newline = text.rfind("\n", 0, max(0, room - len(sep) - len(marker)) + 1)
        if newline > 0:  # whole lines only: the first line (priority, label, id) is never cut
            parts.append(sep + text[:newline] + marker)
        break
    if not parts:
        return ""
    return head + "".join(parts) + tail
