"""Whether an item can ever be injected, and what would let it.

An item's best score follows from which triggers it names and its priority
(docs/relevance.md, "What can and cannot fire"): a LOW item never reaches
0.7, an item that names only context keywords never does, a MEDIUM item
needs a tool and a file (or only tools).  Such an item sits in the graph and never warns
anyone; a lesson drafted from a turn without tool calls is often one.

:func:`unreachable` returns None for an item that can reach the threshold,
else one line that says why not and what would let it fire.  Pure; used by
``forewarn validate`` and ``doctor`` (as warnings), ``forewarn drafts`` and
``forewarn promote``.
"""

from .knowledge import PRIORITY_MULTIPLIER, triggers_of
from .relevance import W_ACTION, W_CONTEXT, W_FILE, W_TOOL

# The priorities from the strongest down, and the terms in the order a fix would add them.
_BY_STRENGTH = sorted(PRIORITY_MULTIPLIER, key=PRIORITY_MULTIPLIER.get, reverse=True)


def best_score(has_tools, has_files, has_action, has_context, priority):
    """The score an item reaches when every trigger it names matches (:func:`forewarn.relevance.score`: an item
    that names neither tools nor files gets the tool term from an action keyword; one that names only tools, the
    file term from its tool)."""
    tool_term = has_tools or has_action and not has_files
    file_term = has_files or has_tools and not (has_action or has_context)
    base = W_TOOL * bool(tool_term) + W_FILE * bool(file_term) + W_ACTION * bool(has_action) + W_CONTEXT * bool(has_context)
    return round(base * PRIORITY_MULTIPLIER.get(priority, 1.0), 6)


def unreachable(node, threshold):
    """None if ``node`` can be injected at ``threshold``; else why it never is, and the remedy, in one line."""
    trig = triggers_of(node)
    names = [bool(trig[k]) for k in ("tool_names", "file_patterns", "action_keywords", "context_keywords")]
    priority = node.get("priority", "MEDIUM")
    best = best_score(*names, priority)
    if best >= threshold:
        return None
    named = [label for label, has in zip(("tools", "file patterns", "action keywords", "context keywords"), names) if has]
    what = ("names only " + " and ".join(named)) if named else "names no trigger"
    fixes = []
    enough = [p for p in _BY_STRENGTH if best_score(*names, p) >= threshold]
    if enough and PRIORITY_MULTIPLIER[enough[-1]] > PRIORITY_MULTIPLIER.get(priority, 1.0):
        fixes.append("priority %s or higher" % enough[-1])
    for index, key in enumerate(("tool_names", "file_patterns", "action_keywords")):
        more = list(names)
        more[index] = True
        if not names[index] and best_score(*more, priority) >= threshold:
            fixes.append(key)
    if not fixes and not names[0] and not names[1]:
        fixes.append("tool_names and file_patterns")
    remedy = ("; it would fire with " + " or ".join(fixes)) if fixes else ""
    return "can never be injected: it %s, and at %s its best score is %.2f, below the threshold %.2f%s" % (
        what, priority, best, threshold, remedy)
