"""forewarn.reach: which items can never be injected, and what would let them."""

import pytest

from forewarn import reach


def item(priority="HIGH", tools=(), files=(), action=(), context=()):
    return {"id": "x", "priority": priority, "trigger_conditions": {
        "tool_names": list(tools), "file_patterns": list(files), "action_keywords": list(action), "context_keywords": list(context)}}


@pytest.mark.parametrize("node", [
    item("CRITICAL", tools=["Bash"]),  # 1.6: an item that names only tools fires on every call of them
    item("MEDIUM", tools=["Task", "Agent"]),  # 0.8
    item("HIGH", tools=["Edit"], files=["**/plugin.json"]),  # 1.2
    item("HIGH", tools=["Bash"], action=["deploy"]),  # 0.75
    item("MEDIUM", tools=["Edit"], files=["*.py"]),  # 0.8
    item("HIGH", files=["*.py"], action=["x"]),  # 0.75
    item("HIGH", action=["deploy"]),  # 0.75: an item that names only keywords gets the tool term from its action keyword
    item("CRITICAL", action=["x"], context=["y"]),  # 1.2
])
def test_items_that_can_fire(node):
    assert reach.unreachable(node, 0.7) is None


@pytest.mark.parametrize("node, says", [
    (item("MEDIUM", action=["deploy"], context=["deploy"]), "names only action keywords and context keywords, and at MEDIUM "
     "its best score is 0.60, below the threshold 0.70; it would fire with priority HIGH or higher"),
    (item("LOW", tools=["Edit"], files=["*.py"], action=["x"], context=["y"]), "at LOW its best score is 0.50, below the "
     "threshold 0.70; it would fire with priority MEDIUM or higher"),
    (item("LOW", tools=["Bash"]), "names only tools, and at LOW its best score is 0.40, below the threshold 0.70; it would "
     "fire with priority MEDIUM or higher"),
    (item("CRITICAL", context=["y"]), "names only context keywords, and at CRITICAL its best score is 0.20, below the "
     "threshold 0.70; it would fire with tool_names or file_patterns or action_keywords"),
    (item("MEDIUM"), "names no trigger, and at MEDIUM its best score is 0.00"),
])
def test_items_that_never_fire_say_why_and_what_would_help(node, says):
    why = reach.unreachable(node, 0.7)
    assert why.startswith("can never be injected: it ") and says in why


def test_the_threshold_decides():
    node = item("MEDIUM", tools=["Bash"], action=["x"], context=["y"])  # 0.6
    assert reach.unreachable(node, 0.6) is None and reach.unreachable(node, 0.61) is not None


def test_best_score_is_the_one_the_index_stores():
    """The index prunes by R_BEST; the reach warning and the pruning must agree."""
    from forewarn import index_build
    from forewarn.index import R_BEST, R_BEST_NO_FILE

    node = dict(item("HIGH", tools=["Edit"], files=["*.py"], action=["x"]), type="Concept", label="l", process_type="pattern",
                pattern={"situation": "s", "action": "a"})
    record = index_build._record(0, node, "", "g.json")
    assert record[R_BEST] == reach.best_score(True, True, True, False, "HIGH") == 1.35
    assert record[R_BEST_NO_FILE] == reach.best_score(True, False, True, False, "HIGH") == 0.75
