"""SessionStart: what the model should know before the first prompt.

:func:`handle` returns at most ``BUDGET`` characters of
``additionalContext`` (or None when there is nothing to say):

* the top five active CRITICAL items (label and one line each), from the
  compiled index (built here if a graph changed, so the first PreToolUse
  of the session finds it warm);
* how many drafts wait for review, with the command that reviews them;
* how many knowledge nodes are invalid and skipped, with the command that
  names them;
* a one-line notice when forewarn runs degraded (its optional environment
  is still being prepared, or the data folder is not writable).

Every ``source`` (startup, resume, clear, compact) gets the same briefing:
after a compaction or a clear the model has lost the earlier one.
``DISABLE_EXPERIENCE_INJECTION=1`` silences the briefing as it silences
PreToolUse: the switch means "show the model nothing from forewarn".
"""

import os

from . import index, paths, session_state
from .inject import disabled

BUDGET = 2000
TOP_CRITICAL = 5
REVIEW_COMMAND = "/forewarn:knowledge-review-drafts"


def _one_line(text, limit):
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _degraded_notes():
    notes = []
    folder = paths.data_dir()
    try:
        os.makedirs(folder, exist_ok=True)
        writable = os.access(folder, os.W_OK)
    except OSError:
        writable = False
    if not writable:
        notes.append("forewarn: its data folder is not writable, so injections are not deduplicated or traced.")
        return notes
    if os.environ.get("FOREWARN_NO_BOOTSTRAP"):
        return notes  # the user opted out of the optional environment: no reminder
    try:
        from . import environment
    except ImportError:
        return notes
    try:
        state = environment.status()
        if state.get("state") in (None, "missing"):
            environment.start_background_bootstrap()
            state = environment.status()
        if state.get("state") != "ready":
            notes.append(
                "forewarn: its optional tools (schema validation) are %s; injection and capture work without them."
                % ("being prepared" if state.get("state") in ("building", "missing", None) else "unavailable (%s)" % _one_line(state.get("error"), 80))
            )
    except Exception as exc:  # the briefing never fails because of the optional environment
        notes.append("forewarn: optional environment check failed (%s)." % _one_line(exc, 80))
    return notes


def compose(header, notes):
    """The briefing text for an index header and degraded-mode notes ("" if nothing to say)."""
    lines = []
    critical = header.get("critical") or []
    total = header.get("critical_count", len(critical))
    if critical:
        lines.append("Critical procedural knowledge for this project (%d active):" % total)
        for item_id, label, description in critical[:TOP_CRITICAL]:
            line = "- [CRITICAL] %s (%s)" % (_one_line(label, 120), item_id)
            if description:
                line += ": " + _one_line(description, 200)
            lines.append(line)
        if total > TOP_CRITICAL:
            lines.append("- … and %d more (forewarn list --priority CRITICAL)" % (total - TOP_CRITICAL))
    drafts = (header.get("counts") or {}).get("draft", 0)
    if drafts:
        lines.append(
            "%d draft lesson%s from earlier sessions wait%s for review: %s"
            % (drafts, "" if drafts == 1 else "s", "s" if drafts == 1 else "", REVIEW_COMMAND)
        )
    invalid = header.get("problem_count", 0)
    if invalid:
        lines.append("%d knowledge node%s or file%s could not be used; `forewarn validate` names them." % (invalid, "" if invalid == 1 else "s", "" if invalid == 1 else "s"))
    lines.extend(notes)
    if not lines:
        return ""
    text = "forewarn briefing (reference data from the knowledge graphs, not a request from the user):\n" + "\n".join(lines)
    if len(text) > BUDGET:
        text = text[: BUDGET - 1].rstrip() + "…"
    return text


def handle(data):
    """The SessionStart decision for one hook input: ``additionalContext`` text or None."""
    if disabled():
        return None
    root = paths.project_root(data.get("cwd"))
    idx, _state = index.open_fresh(root)
    try:
        header = idx.header
    finally:
        idx.close()
    session_state.sweep()
    index.sweep()
    return compose(header, _degraded_notes()) or None
