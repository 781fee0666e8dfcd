"""Relevance: how well a knowledge item fits a tool call, and which items to inject.

The formula is the original design's:

    score = (0.40·tool + 0.40·file + 0.10·action + 0.10·context) × multiplier

with each term 0 or 1 (tool named — for an item that names neither tools
nor files, one of its action keywords occurring: it names the act, whatever
tool does it; a file pattern matches a path of the call — for an item that
names only tools, its tool matching: it is about every call of them; an action keyword occurs in the tool input, or in a shell command with
its words in order among that command's words; a context keyword occurs in
the recent conversation) and the multiplier 2.0/1.5/1.0/0.5 for
CRITICAL/HIGH/MEDIUM/LOW.  Five gates remove the formula's noise
(docs/relevance.md has the measurements):

* **tool gate**: an item that names tools is not injected for a tool it
  does not name; a shell command that writes a file matching the patterns
  of an item about edits (it names Write, Edit, …) counts as that edit
  (``sed -i … plugin.json``, ``echo … >> CHANGELOG.md``), and a subagent
  brief (Task, Agent) that names one of the item's action keywords counts
  as a call of its tools: the subagent will run them;
* **file gate**: an item that names file patterns is not injected for a
  file-bearing call (Write, Edit, ...) whose path matches none of them;
* **action gate**: an item that names action keywords is not injected
  unless one of them occurs in the tool input (they say what the call must
  be doing, e.g. ``version`` for a manifest edit).  An input with no word
  at all (an edit of ``1.3.0`` to ``1.4.0``) cannot be judged and passes.
  For an item about secrets a call that writes a secret
  (:mod:`forewarn.secret_signal`) stands in for the file and action match;
* **specificity gate**: an item that names file patterns or keywords is
  not injected unless one of them matches (a path of the call, a word of
  the tool input or of the recent conversation).  Only an item that names
  nothing but tools fires on the tool alone;
* **environment gate**: an item about production (a keyword holds ``prod``
  or ``production``) is not injected for a call whose input names another
  environment (staging, dev, local, localhost, …) and not production, or a
  local cluster (``--context kind-x``), or that only rehearses its act
  (``--dry-run``, ``helm diff upgrade``): ``kubectl apply -k
  overlays/staging``, ``psql -h localhost … clinic_dev``; nor, for a call
  that names no environment, when the recent conversation names only
  another one (:func:`session_environment`).  And no item from the
  project's graphs is injected for a shell command that runs outside the
  project (``cd ~/src/dotfiles && git push -f``).

Two more gates come before the environment gate: a shell command that only
reads (``kubectl get``, ``git log``, ``terraform plan``) gets no item that
names files or keywords, and a rehearsal (``--dry-run``) none whose action
keyword it matched.  Some acts are recognised in the call itself
(:mod:`forewarn.shell_writes`, :mod:`forewarn.command_aliases`): a
dispatched deploy workflow, SQL that destroys rows, a ref PATCH that forces
a branch, an edit or ``sed`` that sets a new version in a release
checklist's files, a version tag of its package.

Action keywords are searched in a shell command as it runs: what it only
prints or writes as text (``echo '… TRUNCATE …' >> runbook.md``) and its
comments count only for an item that names the file the text goes to.

Items at or above the threshold that pass every gate are ranked by score,
then priority, then id (deterministic), and the top ``top_k`` are injected.

Contract: pure functions over index records (:mod:`forewarn.index`) and a
:class:`forewarn.toolcall.ToolCall`; the recent conversation is fetched
through a callable only when a context keyword could change a decision.
"""

import os

from .globs import extension, index_keys, match_any
from .index import (R_ACTION, R_BEST, R_BEST_NO_FILE, R_CAPITALS, R_CONTEXT, R_ID, R_LITERAL, R_MULT, R_PATTERNS, R_PRODUCTION,
                    R_RANK, R_SOURCE, R_TOOLS)
from .paths import user_graphs_dir
from .keywords import any_in, any_in_command
from .secret_signal import about_secrets
from .toolcall import FILE_EDIT_TOOLS

W_TOOL = 0.40  # the call's tool is one the item names
W_FILE = 0.40  # a path of the call matches one of the item's file patterns
W_ACTION = 0.10  # an action keyword occurs in the tool input
W_CONTEXT = 0.10  # a context keyword occurs in the recent conversation
KEYWORD_ONLY_MAX = (W_ACTION + W_CONTEXT) * 2.0  # the most an item can score without tool or file
DEFAULT_THRESHOLD = 0.7  # where the index splits its tool buckets (forewarn.config.DEFAULTS)


SECRET_BUCKET = "secret"  # the index bucket of the items about secrets
ANY_TOOL = "ta"  # the bucket base of items that name only keywords (ta|w:<word>; tal below the default threshold)
SECRET_WRITTEN = " a secret written "  # the action term of an item about secrets for a call that writes one
VERSION_BUMPED = " a version bumped "  # the action term of a release checklist for a step that sets a new version
RELEASE_TAGGED = " a release tagged "  # the action term of a release checklist for a version tag of its package
SHELL_TOOLS = frozenset(("bash", "powershell"))  # the tools of a release checklist (releases)
# The environment gate: an item about production is not injected for a call that names another environment.
PRODUCTION = frozenset(("prod", "production"))
DRY_RUN = "a dry run"  # what other_environment says of a call that only rehearses (helm diff upgrade, --dry-run)
NON_PRODUCTION = ("staging", "stage", "stg", "dev", "development", "local", "localhost", "qa", "sandbox", "minikube")


def edits_files(tools):
    """True if an item names a file-editing tool (its knowledge is about changing files)."""
    return not FILE_EDIT_TOOLS.isdisjoint(tools)


def releases(tools):
    """True for an item that names only shell tools and file patterns could be a release checklist
    (``gem push`` with ``gems/client/lib/client/version.rb``): an edit that sets a new version in one of its
    files, or in a file its steps name (:func:`forewarn.index_build.procedure_files`), is a step of it."""
    return SHELL_TOOLS.issuperset(tools)


def tags_name_package(tags, patterns):
    """True if one of the version tags names a package the patterns are about: its name before the version
    (``client`` of ``client-v2.4.0``, ``sdk`` of ``sdk/v1.9.0``) is a literal folder among the first two of a
    positive pattern (``gems/client/lib/client/version.rb``, ``sdk/package.json``)."""
    folders = {seg.lower() for c in patterns if not c[0] for seg in c[2][:2] if isinstance(seg, str)}
    return any(name in folders for name in tags)


def confirmed(record, call, folded_keyword):
    """False when a keyword's folded match is not the keyword as written: one written in capitals (``UPDATE``)
    found only in lower-case prose ("Update my branch"), or one whose punctuation is its meaning (``-delete``,
    ``.delete()``) found only as the bare word (``kubectl delete``)."""
    if folded_keyword in record[R_CAPITALS] and call.only_in_lowercase_prose(folded_keyword):
        return False
    for folded, literal in record[R_LITERAL]:
        if folded == folded_keyword and not call.holds_literally(literal):
            return False
    return True


def file_names(patterns):
    """The file names the positive patterns end in (``**/version.rb`` gives ``version.rb``): a brief that names
    ``lib/client/version.rb`` from inside a package names the file ``gems/client/lib/client/version.rb``."""
    return {value for kind, value in (index_keys(c) for c in patterns if not c[0]) if kind == "n"}


def tool_matches(tools, names):
    """True if any of the call's names (tool plus aliases, lower case) is named; ``x*`` is a prefix."""
    for tool in tools:
        if tool.endswith("*"):
            prefix = tool[:-1]
            if any(name.startswith(prefix) for name in names):
                return True
        elif tool in names:
            return True
    return False


def candidate_keys(call, threshold, keyword_words=None, tool_prefixes=()):
    """The index buckets that can hold an item able to reach ``threshold`` for this call.

    None means every bucket: below ``KEYWORD_ONLY_MAX`` keywords alone can
    reach the threshold, so no item can be ruled out by tool or path.
    ``keyword_words`` (from the index header) lists, per tool bucket, the
    first words of its items' action keywords; only the words that occur in
    the call's input are read.  ``tool_prefixes`` (also from the header)
    are the ``x*`` tool names the index holds; only those the call's tool
    starts with are read.  A subagent brief (Task, Agent) reads the keyword
    buckets of every tool and every prefix: the act it names may be any
    tool's (:func:`score`).
    """
    if threshold <= KEYWORD_ONLY_MAX:
        return None
    keys = ["tp:" + p for p in tool_prefixes if call.delegates or any(name.startswith(p) for name in call.names)]
    lows = ("", "l") if threshold < DEFAULT_THRESHOLD else ("",)
    bases = [ANY_TOOL + low for low in lows]  # items that name only keywords, filed by their action keywords
    for name in call.names:
        for low in lows:
            bases.append("t0%s:%s" % (low, name))
            if not call.file_bearing:
                bases.append("tf%s:%s" % (low, name))
    if call.delegates:  # a subagent brief: the keyword items of every tool, for the act the subagent will do with it
        prefixes = tuple("t%s%s:" % (kind, low) for kind in "0f" for low in ("", "l"))  # a named file may lift one
        bases.extend(base for base in (keyword_words or {}) if base.startswith(prefixes) and base not in bases)
    present = None
    for base in bases:
        keys.append(base)
        words = (keyword_words or {}).get(base)
        if not words:
            continue
        if (call.wordless or base.startswith("tf") and call.release_tags()) and not base.startswith(ANY_TOOL) \
                and not call.delegates:
            keys.append(base + "|kw")  # every keyword item of the bucket: no word to pick by, or a release's tag
            if call.wordless:
                continue
        if present is None:
            present = call.words()
        hits = [w for w in words if w in present] if len(words) < len(present) else [w for w in present if w in words]
        keys.extend(base + "|w:" + w for w in hits)
    edited = call.paths if not FILE_EDIT_TOOLS.isdisjoint(call.names) else call.write_paths
    for prefix, paths in (("", call.paths), ("w", edited)):
        if paths:
            keys.append(prefix + "g")
        for segs in paths:
            for seg in segs:
                keys.append(prefix + "n:" + seg)
                ext = extension(seg)
                if ext:
                    keys.append(prefix + "e:" + ext)
    return keys


class Verdict:
    """One item scored against one call: the terms, the score, and why it is (not) eligible."""

    __slots__ = ("record", "tool", "file", "action", "context", "score", "gate", "secret")

    def __init__(self, record):
        self.record = record
        self.tool = self.file = False
        self.action = self.context = None  # the matched keyword, or None
        self.score = 0.0
        self.gate = None
        self.secret = False  # the call writes a secret and the item is about secrets: that stands for its file match

    @property
    def eligible(self):
        return self.gate is None

    def terms(self):
        """The score terms as a dict (for the trace log and ``explain``); ``secret`` only when it decided."""
        terms = {
            "tool": int(self.tool),
            "file": int(self.file),
            "action": self.action.strip() if self.action else None,
            "context": self.context.strip() if self.context else None,
        }
        if self.secret:
            terms["secret"] = 1
        return terms


def score(record, call, threshold, conversation, always_context=False):
    """Score ``record`` against ``call``.

    ``conversation()`` returns the folded recent conversation; it is called
    only if the record has context keywords and the context term could
    decide whether the item reaches ``threshold`` (or ``always_context``).
    """
    v = Verdict(record)
    tools = record[R_TOOLS]
    patterns = record[R_PATTERNS]
    v.tool = bool(tools) and tool_matches(tools, call.names)
    if patterns and call.paths:
        v.file = any(match_any(patterns, segs) for segs in call.paths)
    if not v.tool and v.file and call.write_paths and edits_files(tools):
        # a shell command that writes a file the item's patterns name is an edit of that file (sed -i, >>, cp, rm)
        v.tool = any(match_any(patterns, segs) for segs in call.write_paths)
    mult = record[R_MULT]
    release_step = False
    if tools and not v.tool and v.file and releases(tools) and call.tool.lower() in ("edit", "multiedit") and call.bumps_version():
        v.tool = release_step = True  # an edit that sets a new version in a file a release names is a step of it
    if record[R_ACTION] and not release_step:
        # what a shell command only prints or writes as text (echo '…' >> runbook.md) is no act; it counts only as
        # the content of a file the item names
        run = not v.file
        text = call.folded_run_text() if run else call.folded_text()
        v.action = any_in(record[R_ACTION], text)
        if v.action is not None and (record[R_CAPITALS] or record[R_LITERAL]) and not confirmed(record, call, v.action):
            v.action = next((k for k in record[R_ACTION] if k in text and confirmed(record, call, k)), None)
        if v.action is None and call.commands(run):  # flags and arguments may sit between a keyword's words
            v.action = any_in_command(record[R_ACTION], call.commands(run))
            if v.action is not None and record[R_LITERAL] and not confirmed(record, call, v.action):
                v.action = next((k for k in record[R_ACTION] if any_in_command((k,), call.commands(run))
                                 and confirmed(record, call, k)), None)
    if release_step:
        v.action = VERSION_BUMPED
    elif v.action is None and v.tool and record[R_ACTION] and releases(tools) and call.write_paths \
            and any(match_any(patterns, segs) for segs in call.write_paths) and call.bumps_version():
        v.action = VERSION_BUMPED  # sed -i 's/1.4.2/1.5.0/' mix.exs: the version bump the item's file names
    elif v.action is None and v.tool and record[R_ACTION] and releases(tools) and patterns and call.release_tags() \
            and tags_name_package(call.release_tags(), patterns):
        v.action = RELEASE_TAGGED  # git tag client-v2.4.0, gh release create sdk/v1.9.0: a step of that package's release
    if not tools and not patterns and v.action is not None:
        v.tool = True  # an item that names only keywords names the act: whatever tool does it, that is its tool match
    elif tools and not v.tool and v.action is not None and call.delegates:
        # a subagent brief that names the act: the subagent will do it with the item's tools -- on the item's files,
        # if it names any file at all
        named = call.brief_files() if patterns else None
        v.file = bool(named) and any(match_any(patterns, segs) or segs[-1] in file_names(patterns) for segs in named)
        v.tool = v.file or not named
    if v.tool and not (patterns or record[R_ACTION] or record[R_CONTEXT]):
        v.file = True  # an item that names only tools is about every call of them: no file narrows it, every one matches
    file_blocked = bool(patterns) and call.file_bearing and not v.file
    if (file_blocked or record[R_ACTION] and v.action is None) and (not tools or v.tool) and about_secrets(record[R_ACTION]) \
            and call.carries_secret():
        # knowledge about secrets meets a call that writes one, wherever and under whatever name: that is its file match
        file_blocked, v.action, v.secret = False, v.action or SECRET_WRITTEN, True
        v.file = v.file or bool(patterns)
    if tools and not v.tool:
        v.gate = "tool %s is not among %s" % (call.tool or "?", ", ".join(tools))
    elif file_blocked:
        v.gate = "path %s matches none of its file patterns" % (call.display_path or "?")
    base = W_TOOL * v.tool + W_FILE * v.file + W_ACTION * (v.action is not None)
    # specificity gate: an item that names files or keywords must match one of them
    unspecific = bool(patterns or record[R_ACTION] or record[R_CONTEXT]) and not v.file and v.action is None
    if record[R_CONTEXT]:
        could_decide = base * mult < threshold <= (base + W_CONTEXT) * mult
        if always_context or (v.gate is None and (could_decide or unspecific)):
            text = conversation()
            if text:
                v.context = any_in(record[R_CONTEXT], text)
    v.score = round((base + W_CONTEXT * (v.context is not None)) * mult, 6)
    if v.gate is None and record[R_ACTION] and v.action is None and not call.wordless:
        v.gate = "none of its action keywords occur in the tool input"
    if v.gate is None and unspecific and v.context is None:
        v.gate = "none of its file patterns or keywords occur in this call"
    if v.gate is None and (patterns or record[R_ACTION] or record[R_CONTEXT]) and call.only_reads():
        v.gate = "the command only reads (kubectl get, git log, terraform plan, …); the item is about an act"
    if v.gate is None and record[R_ACTION] and v.action is not None and call.dry_run():
        v.gate = "the call is a dry run; the item is about the act it rehearses"
    if v.gate is None and (record[R_CONTEXT] or record[R_ACTION]):
        elsewhere = other_environment(record, call)
        if elsewhere == DRY_RUN:
            v.gate = "the call is a dry run; the item is about production"
        elif elsewhere:
            v.gate = "the call names %s, not production; the item is about production" % elsewhere
        else:
            elsewhere = session_environment(record, call, conversation)
            if elsewhere:
                v.gate = "the session names %s, not production; the item is about production" % elsewhere
    if v.gate is None and call.runs_outside and not users_own(record):
        v.gate = "the command runs outside the project; the item is the project's knowledge"
    if v.gate is None and v.score < threshold:
        v.gate = "score %.2f below threshold %.2f" % (v.score, threshold)
    return v


def other_environment(record, call):
    """The non-production environment the call names when the item is about production, else None.

    An item is about production when one of its keywords holds the word
    ``prod`` or ``production``; a call names another environment when its
    input (command, path, text, description) holds one of
    :data:`NON_PRODUCTION` and neither of those words, or a local cluster
    (:meth:`forewarn.toolcall.ToolCall.local_cluster`).  A shell command
    that only rehearses its act (``--dry-run``, ``helm diff upgrade``,
    ``migrate --plan``) is :data:`DRY_RUN`, wherever it points.
    """
    if not record[R_PRODUCTION]:
        return None
    if call.dry_run():
        return DRY_RUN
    words = call.words()
    if not PRODUCTION.isdisjoint(words):
        return None
    for word in NON_PRODUCTION:
        if word in words:
            return word
    return call.local_cluster()


def session_environment(record, call, conversation):
    """The non-production environment the session works in, for an item about production and a call that names
    no environment at all (``alembic upgrade head``, ``npx cdk deploy Data``), else None.

    Read from the recent conversation (:mod:`forewarn.conversation`): it names one of :data:`NON_PRODUCTION`
    and neither ``prod`` nor ``production`` anywhere.  A session that mentions production at all, or has no
    conversation yet, is not gated: a bare command there may be the production act.
    """
    if not record[R_PRODUCTION]:
        return None
    words = call.words()
    if not PRODUCTION.isdisjoint(words) or any(word in words for word in NON_PRODUCTION) or call.local_cluster():
        return None
    text = conversation()
    said = (text.words() if hasattr(text, "words") else set(text.split())) if text else ()
    if not said or not PRODUCTION.isdisjoint(said):
        return None
    return next((word for word in NON_PRODUCTION if word in said), None)


def users_own(record):
    """True for an item from the user's own graphs (knowledge for every project), not the project's."""
    # graphs are the folder's own *.json files; the folder may be given with a trailing separator
    return os.path.dirname(record[R_SOURCE]) == os.path.normpath(user_graphs_dir())


def rank_key(verdict):
    """Deterministic order: higher score, then higher priority, then id."""
    rec = verdict.record
    return (-verdict.score, rec[R_RANK], rec[R_ID])


def evaluate(index, call, threshold, conversation, everything=False, always_context=False):
    """Every candidate's verdict for ``call`` (every item's with ``everything``), ranked, eligible first.

    Without ``everything``, items that cannot reach ``threshold`` even with
    every term matched (``R_BEST``), and items that name tools other than the
    call's (the tool gate would stop them whatever they score), are not
    scored at all.
    """
    header = index.header
    keys = None if everything else candidate_keys(call, threshold, header.get("keyword_words"), header.get("tool_prefixes", ()))
    if keys is not None and SECRET_BUCKET in header["buckets"] and call.carries_secret():
        keys.append(SECRET_BUCKET)
    if keys is None:
        records = index.all_records()
    else:
        records = []
        seen = set()
        best = R_BEST if call.paths or call.delegates and call.brief_files() else R_BEST_NO_FILE
        names, writes = call.names, bool(call.write_paths)
        edits = call.tool.lower() in ("edit", "multiedit")
        delegates = call.delegates
        for key in keys:
            for record in index.bucket(key):
                if record[0] not in seen and record[best] >= threshold:
                    seen.add(record[0])
                    tools = record[R_TOOLS]
                    if not tools or tool_matches(tools, names) or (writes and edits_files(tools)) or delegates and record[R_ACTION] \
                            or edits and record[R_PATTERNS] and releases(tools):
                        records.append(record)
    verdicts = [score(record, call, threshold, conversation, always_context) for record in records]
    for i, v in enumerate(verdicts):
        if v.eligible and v.context is None and v.record[R_CONTEXT] and not always_context:
            # rank the items that will be injected by their whole score: the context term was skipped where it
            # could not change eligibility, but it can change the order and which three are chosen
            verdicts[i] = score(v.record, call, threshold, conversation, True)
    verdicts.sort(key=lambda v: (not v.eligible,) + rank_key(v))
    return verdicts
