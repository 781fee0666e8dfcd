"""Tunable settings: defaults, the project's ``.claude/forewarn.json``, environment.

Contract: :func:`load_file_config` (index-build time, may use :mod:`json`)
returns only known keys with valid values, dropping anything else with a
note; :func:`effective` (hot path) applies ``FOREWARN_*`` environment
overrides to the settings stored in the index.  Invalid values never raise.
"""

import os

DEFAULTS = {
    "threshold": 0.7,  # inject at or above this relevance
    "top_k": 3,  # at most this many items per tool call
    "max_chars": 1500,  # additionalContext budget per tool call (Claude Code spills > 10,000)
    "context_bytes": 65536,  # how much of the transcript's tail is read for context keywords
}
LIMITS = {
    "threshold": (0.0, 10.0),
    "top_k": (1, 10),
    "max_chars": (200, 8000),
    "context_bytes": (0, 1 << 20),
}
ENV = {
    "threshold": "FOREWARN_THRESHOLD",
    "top_k": "FOREWARN_TOP_K",
    "max_chars": "FOREWARN_MAX_CHARS",
    "context_bytes": "FOREWARN_CONTEXT_BYTES",
}
CONFIG_RELPATH = os.path.join(".claude", "forewarn.json")


def _coerce(key, value):
    if isinstance(value, bool):
        return None
    lo, hi = LIMITS[key]
    try:
        number = float(value) if key == "threshold" else int(value)
    except (TypeError, ValueError):
        return None
    if not lo <= number <= hi:
        return None
    return number


def config_path(root):
    """The project's settings file (it may not exist)."""
    return os.path.join(root, CONFIG_RELPATH) if root else None


def load_file_config(root):
    """``(settings, notes)`` from defaults and the project's settings file."""
    settings = dict(DEFAULTS)
    notes = []
    path = config_path(root)
    if not path or not os.path.isfile(path):
        return settings, notes
    import json

    try:
        with open(path, "rb") as handle:
            raw = json.loads(handle.read().decode("utf-8"))
    except (OSError, ValueError) as exc:
        return settings, ["%s: ignored (%s)" % (path, exc)]
    if not isinstance(raw, dict):
        return settings, ["%s: ignored (not an object)" % path]
    for key, value in raw.items():
        if key not in DEFAULTS:
            notes.append("%s: unknown setting %r ignored" % (path, key))
            continue
        good = _coerce(key, value)
        if good is None:
            notes.append("%s: %s=%r out of range %s, default kept" % (path, key, value, LIMITS[key]))
        else:
            settings[key] = good
    return settings, notes


def effective(stored):
    """Settings stored in the index with ``FOREWARN_*`` environment overrides applied."""
    settings = dict(DEFAULTS)
    settings.update(stored or {})
    for key, var in ENV.items():
        raw = os.environ.get(var)
        if raw:
            good = _coerce(key, raw)
            if good is not None:
                settings[key] = good
    return settings
