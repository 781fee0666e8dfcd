"""Whether a tool call puts a secret somewhere, for knowledge about secrets.

"No secrets in the repository" is written once and keyed on the files and
words its author thought of (``**/.env``, ``SECRET``); the calls it is
about are the ones that write a secret, wherever and however named: a
password in ``values-prod.yaml`` as ``saslPassword``, a token appended to
``.env`` by ``echo``, a hard-coded ``SECRET_KEY`` in ``settings/base.py``,
an APNs key copied into the app.  :func:`carries_secret` says a call does
that — it writes text holding a value the capture's redaction recognises as
secret (:mod:`forewarn.learning.redact`), or writes a file whose name says
it is one (``.env``, ``*.pem``, ``*.p8``, ``id_rsa``) — and
:func:`about_secrets` whether an item's keywords say it is about secrets.
The relevance rule lets the one stand for the other's file and action
match (docs/relevance.md).

Pure; the redaction patterns are imported only when an item about secrets
meets a call it does not already match.
"""

# Words that make an item's keyword about secrets (keywords are folded: " api key ", " aws secret access key ").
SECRET_WORDS = frozenset(("secret", "secrets", "password", "passwords", "passwd", "token", "tokens", "credential",
                          "credentials", "apikey"))
SECRET_PHRASES = (" api key ", " private key ", " access key ")
# File names that are secrets whatever they hold.
SECRET_EXTENSIONS = frozenset(("pem", "p8", "p12", "pfx", "key", "keystore", "jks"))
SECRET_NAMES = frozenset(("id_rsa", "id_ed25519", "id_ecdsa", "credentials", "credentials.json"))
NOT_SECRET_ENV = frozenset(("example", "sample", "template", "dist", "defaults"))
# The tool input fields that hold what a call writes (an edit's old text is what it replaces).
WRITTEN_KEYS = ("content", "new_string", "new_source", "command", "files", "edits")
MAX_SCANNED = 64 * 1024


def about_secrets(folded_keywords):
    """True when one of an item's folded keywords names secrets (``SECRET``, ``password``, ``API_KEY``)."""
    for keyword in folded_keywords:
        if not SECRET_WORDS.isdisjoint(keyword.split()) or any(p in keyword for p in SECRET_PHRASES):
            return True
    return False


def is_secret_file(name):
    """True for a file name that is a secret by what it is: ``.env`` (not ``.env.example``), keys, keystores."""
    low = name.lower()
    if low == ".env" or low.startswith(".env.") and low[5:] not in NOT_SECRET_ENV:
        return True
    return low in SECRET_NAMES or "." in low and low.rsplit(".", 1)[1] in SECRET_EXTENSIONS


def written_text(tool_input):
    """The text a call writes, bounded: new file content, an edit's new text, a shell command, an MCP tool's files."""
    chunks, size = [], 0
    for key in WRITTEN_KEYS:
        value = tool_input.get(key)
        if isinstance(value, list):  # MultiEdit's edits, an MCP tool's files
            value = "\n".join(str(v.get("new_string") or v.get("content") or "") if isinstance(v, dict) else str(v) for v in value)
        if isinstance(value, str) and value:
            chunks.append(value[: MAX_SCANNED - size])
            size += len(chunks[-1])
            if size >= MAX_SCANNED:
                break
    return "\n".join(chunks)


def carries_secret(tool_input, written_paths, shell=False):
    """True when the call writes a secret value, or writes a file that is a secret.

    ``written_paths``: the segment lists of the files the call writes inside
    the project (an MCP tool's ``files`` entries count by their ``path``).
    Example, sample and template files hold placeholders and count for
    nothing; a shell command counts only when it writes a file.
    """
    paths = [segs[-1] for segs in written_paths if segs]
    files = tool_input.get("files")
    if isinstance(files, list):
        paths += [f["path"].replace("\\", "/").rsplit("/", 1)[-1] for f in files if isinstance(f, dict) and isinstance(f.get("path"), str)]
    paths = [name for name in paths if not _placeholder_file(name)]
    if any(is_secret_file(name) for name in paths):
        return True
    if shell and not paths or not paths and written_paths:
        return False
    text = written_text(tool_input)
    return bool(text) and holds_secret_value(text)


def holds_secret_value(text):
    """True when ``text`` holds a secret the capture would redact, and not only a reference to one or a
    placeholder: a token by its shape, a password in a URL to another host than this machine, or a literal
    value given to a secret's name (``saslPassword: "mK9#pz…"``, not ``${{ secrets.NPM_TOKEN }}``,
    ``os.environ["X"]``, ``z.string()`` or ``changeme``)."""
    if not _may_hold_secret(text.lower()):
        return False  # most written text: no regex, nothing imported
    from .learning import redact

    if not redact.CUE.search(text):
        return False
    if any(pattern.search(text) for pattern, _replacement in redact.TOKENS):
        return True
    for match in redact.URL_PASSWORD[0].finditer(text):
        host = text[match.end(): match.end() + 20].lower()
        if not host.startswith(("localhost", "127.0.0.1", "[::1]")) and _literal(match.group(0).rsplit(":", 1)[1][:-1]):
            return True
    for pattern, _replacement in redact.NAMED:
        for match in pattern.finditer(text):
            if _literal(match.group(0)[match.end(match.lastindex) - match.start():]):
                return True
    return False


# Substrings of which every secret the redaction knows holds one (a superset of its cue, lower case): on the hook's
# path a call whose written text holds none of them is settled without importing a regular expression.
SECRET_CUES = ("sk-", "sk_", "rk_", "pk_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "akia", "asia", "xox",
               "aiza", "glpat", "npm_", "eyj", "bearer", "token", "basic", "hooks.slack.com", "private key", "pass", "pwd",
               "secret", "credential", "auth")


def _may_hold_secret(low):
    return (any(cue in low for cue in SECRET_CUES) or "://" in low and "@" in low
            or "key" in low and ("api" in low or "access" in low))


PLACEHOLDER_WORDS = ("example", "sample", "template")
# A value that names a secret kept elsewhere, or stands in for one.
REFERENCE = (r"^[$<{%(\[]|\$\{|\{\{|\(|environ|getenv|process\.env|secrets\.|vault:|ref\+|"
             r"change[-_]?me|example|placeholder|dummy|your[-_]|x{4,}|\*{3,}|redacted|not[-_]secret")
_reference = []  # the compiled REFERENCE, once a value has to be judged


def _placeholder_file(name):
    low = name.lower()
    return low.endswith(".dist") or any(word in low for word in PLACEHOLDER_WORDS)


def _literal(value):
    """True for a value that is itself a secret: six characters or more, with a digit or a symbol, not a reference
    (an environment variable's name, ``${…}``, ``secrets.X``, a call) or a placeholder."""
    value = value.strip().strip("'\"`").strip()
    if len(value) < 6 or all(c.isalpha() for c in value):
        return False
    if value.isupper() and value.replace("_", "").isalnum():
        return False  # MAVEN_GPG_PASSPHRASE: the name of the variable that holds it
    if not _reference:
        import re

        _reference.append(re.compile(REFERENCE, re.I))
    return not _reference[0].search(value)
