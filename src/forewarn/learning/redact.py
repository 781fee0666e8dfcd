"""Secrets out before anything is stored.

Contract: :func:`redact` replaces every match of :data:`PATTERNS` with
``[REDACTED]`` (keeping a key name, flag or URL user where that helps a
reader) and :func:`redact_node` returns a copy of a node with every string
inside it redacted, keys included.  Pure functions; a string without any
secret cue (:data:`CUE`) costs one regex scan.

Covered: API keys and tokens by their prefixes (``sk-…``, ``sk_live_…``,
``ghp_…``, ``github_pat_…``, ``AKIA…``/``ASIA…``, ``xox…-``, ``AIza…``,
``glpat-…``, ``npm_…``), JWTs, ``Bearer``/``token``/``Basic`` credentials,
Slack webhook URLs, passwords in URLs (``scheme://user:[REDACTED]@host``),
private key blocks, ``--password VALUE``-style flags, and assignments
(``.env``, YAML, JSON, query strings) to names with a component PASSWORD,
PASSWD, PASSPHRASE, PWD, PASS, SECRET, TOKEN, API_KEY, ACCESS_KEY,
PRIVATE_KEY, CREDENTIAL(S), AUTH or AUTHORIZATION (also as the last hump of a camelCase name, ``dbPassword``),
Kubernetes-style ``name:``/``value:`` env entries for such names, and a password said in prose ("password
Pancake-Tuesday-48": a value with a digit after the word).
"""

import re

from .lazy_regex import lazy

MARK = "[REDACTED]"

# A name with a secret component, also in camelCase ("dbPassword", "saslPassword", "stripeApiKey").
_NAME = (r"(?:[A-Za-z0-9]+[_.\-]|(?-i:[a-z][a-z0-9]*(?=[A-Z])))*(?:PASSWORD|PASSWD|PASSPHRASE|PWD|PASS|SECRET|SECRETS|TOKEN|API[_\-]?KEY|ACCESS[_\-]?KEY|"
         r"PRIVATE[_\-]?KEY|CREDENTIALS?|AUTH|AUTHORIZATION|CLIENT[_\-]?SECRET)(?:[_.\-][A-Za-z0-9]+)*")

# One scan tells whether a string may hold a secret at all.
CUE = lazy(
    r"sk[-_]|[rp]k_(?:live|test)|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abposr]-|AIza|glpat|npm_|eyJ|bearer|token|basic\s|"
    r"hooks\.slack\.com|://[^\s/@]*:[^\s/@]*@|PRIVATE KEY|pass|pwd|secret|api.?key|access.?key|credential|auth",
    re.I,
)

# (pattern, replacement): the replacement may keep a group that is not secret.  Three kinds, which
# forewarn.secret_signal tells apart: tokens recognisable by their shape, passwords in URLs, and values given
# to a secret's name (a flag, an assignment, an env entry), where the replacement keeps the name.
TOKENS = [
    (lazy(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.S), MARK),
    (lazy(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{16,}"), MARK),
    (lazy(r"\b[rsp]k_(?:live|test)_[A-Za-z0-9]{10,}"), MARK),
    (lazy(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})"), MARK),
    (lazy(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"), MARK),
    (lazy(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), MARK),
    (lazy(r"\bAIza[0-9A-Za-z_\-]{30,}"), MARK),
    (lazy(r"\b(?:glpat|npm)[_\-][A-Za-z0-9_\-]{20,}"), MARK),
    (lazy(r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"), MARK),  # JWT
    (lazy(r"(https://hooks\.slack\.com/services/)[A-Za-z0-9/_\-]+"), r"\1" + MARK),
    (lazy(r"(?i)\b(bearer|token|basic)\s+(?=[A-Za-z0-9._~+/\-]*\d)[A-Za-z0-9._~+/\-]{16,}=*"), r"\1 " + MARK),
]
URL_PASSWORD = (lazy(r"([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]*):[^\s@/]+@"), r"\1:" + MARK + "@")  # "redis://:pw@host": no user
NAMED = [
    (lazy(r"(?i)(--?(?:password|passwd|pass|token|secret|api-key|apikey|access-key|auth-token|client-secret)[= ])"
                r"(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s'\"]+)"), r"\1" + MARK),
    (lazy(r"(?i)\b(" + _NAME + r")(['\"]?\s*[:=]\s*)(?!(?:true|false|null|none|yes|no|enabled|disabled)\b)(?:\"[^\"\n]+\"|'[^'\n]+'|[^\s'\",;&]{4,})"), r"\1\2" + MARK),
    # a password said in prose: "demo account: demo@x.org, password Pancake-Tuesday-48", "the password is hunter22"
    (lazy(r"(?i)\b((?:password|passphrase|passcode)\s+(?:is\s+|was\s+)?)(?=[^\s'\",;]*\d)(?!(?:reset|policy|manager)\b)[^\s'\",;]{6,}"),
     r"\1" + MARK),
    # a Kubernetes or compose env entry: "- name: FHIR_CLIENT_SECRET" and, on the next line, "value: ..."
    (lazy(r"(?i)(\bname:\s*['\"]?" + _NAME + r"['\"]?\s*\n\s*value:\s*)(?:\"[^\"\n]+\"|'[^'\n]+'|[^\s'\"]{4,})"), r"\1" + MARK),
]
PATTERNS = TOKENS + [URL_PASSWORD] + NAMED


def redact(text):
    """``text`` with every secret replaced by ``[REDACTED]`` (non-strings are returned unchanged)."""
    if not isinstance(text, str) or not text or not CUE.search(text):
        return text
    for pattern, replacement in PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_node(value):
    """A deep copy of ``value`` (dicts, lists, strings, scalars) with every string redacted, keys included."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(k) if isinstance(k, str) else k: redact_node(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_node(v) for v in value]
    return value
