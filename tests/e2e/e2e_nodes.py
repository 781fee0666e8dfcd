"""Knowledge nodes the end-to-end scenarios put in a project's ``.claude/graphs/*.json``."""

import copy

# The CRITICAL version-bump checklist: fires on a Write/Edit of a plugin.json (or pyproject.toml).
VERSION_BUMP = {
    "id": "ck-version-bump",
    "type": "Concept",
    "label": "Version bump sync",
    "description": "When plugin.json's version changes, the marketplace manifest and the changelog change with it.",
    "process_type": "checklist",
    "priority": "CRITICAL",
    "status": "active",
    "trigger_conditions": {
        "tool_names": ["Write", "Edit"],
        "file_patterns": ["**/plugin.json", "**/pyproject.toml"],
        "action_keywords": ["version"],
        "context_keywords": ["release"],
    },
    "checklist": {
        "title": "Version bump sync",
        "items": ["Update .claude-plugin/marketplace.json to the same version", "Add a CHANGELOG.md entry"],
        "format": "markdown",
    },
}

# Text only the checklist's items carry (not the file path, not the tool input).
CHECKLIST_MARKERS = ("marketplace.json", "CHANGELOG.md")


def node(base=VERSION_BUMP, **changes):
    """A deep copy of ``base`` with top-level fields replaced."""
    out = copy.deepcopy(base)
    out.update(changes)
    return out


def plugin_json_write(sandbox, version="0.2.0"):
    """A scripted Write of ``.claude-plugin/plugin.json`` in the sandbox project: (name, input)."""
    return "Write", {
        "file_path": sandbox.path(".claude-plugin", "plugin.json"),
        "content": '{"name": "demo", "version": "%s"}\n' % version,
    }
