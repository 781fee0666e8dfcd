"""Secrets out before anything is stored.

Contract: :func:`redact` replaces every match of :data:`PATTERNS` with
``[REDACTED]`` (keeping a key name or URL user where that helps a reader)
and :func:`redact_node` applies it to every string inside a node, keys
included.  Pure functions.
"""

import re

MARK = "[REDACTED]"

# (pattern, replacement): the replacement may keep a group that is not secret.
PATTERNS = [
    (re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.S), MARK),
    (re.compile(r"\b(sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,})"), MARK),
    (re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"), MARK),
    (re.compile(r"\b(AKIA|ASIA)[A-Z0-9]{16}\b"), MARK),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), MARK),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}"), MARK),
    (re.compile(r"\b(?:glpat|npm)_[A-Za-z0-9_\-]{20,}"), MARK),
    (re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"), MARK),  # JWT
    (re.compile(r"(?i)\b(bearer|token)\s+[A-Za-z0-9._~+/\-]{16,}=*"), r"\1 " + MARK),
    (re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]+):[^\s@/]+@"), r"\1:" + MARK + "@"),
    (
        re.compile(
            r"(?i)\b([A-Z0-9_]*(?:PASSWORD|PASSWD|PWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*)"
            r"(\s*[:=]\s*)(['\"]?)[^\s'\"]{4,}\3"
        ),
        r"\1\2" + MARK,
    ),
]


def redact(text):
    """``text`` with every secret replaced by ``[REDACTED]``."""
    if not isinstance(text, str) or not text:
        return text
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_node(value):
    """A deep copy of ``value`` with every string redacted."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(k) if isinstance(k, str) else k: redact_node(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_node(v) for v in value]
    return value
