"""Which files a shell command changes: the files a Bash or PowerShell call edits without the Write tool.

Agents often change files from the shell — ``sed -i`` on a manifest, ``echo … >> CHANGELOG.md``, ``cp``, ``mv``,
``rm`` — and knowledge written for edits ("when plugin.json changes, …") should reach them there too.
:func:`write_targets` returns the paths a command writes, creates, moves or deletes, as written in the command
(the caller resolves them against the hook's ``cwd``).  Reading commands (``cat``, ``jq``, ``grep``,
``git diff``) write nothing and yield nothing.

Contract: pure and standard library only (no ``re``: it runs on the PreToolUse path); any string in, a list of
strings out, never raises.  It is a recogniser, not a shell: quoting (``'…'``, ``"…"``, backslash) and the
separators ``&& || ; | &`` and newlines are understood; expansions, subshells and here-documents are not
(a ``$VAR`` or ``$(…)`` target is dropped).  At most ``MAX_TARGETS`` paths.
"""

MAX_TARGETS = 16
MAX_COMMAND_CHARS = 4 * 1024  # targets are named early; a long heredoc body is not read
SEPARATORS = ("&&", "||", ";", "|", "&", "\n")

# command -> how its arguments name what it changes
ALL_ARGS = frozenset({"rm", "rmdir", "touch", "unlink", "shred", "mkdir", "tee", "truncate"})
LAST_ARG = frozenset({"cp", "install", "ln", "rsync", "scp"})
EVERY_PATH_ARG = frozenset({"mv"})  # the sources disappear from where they were, the target appears
FIRST_ARG_IS_MODE = frozenset({"chmod", "chown", "chgrp"})
IN_PLACE = frozenset({"sed", "perl", "gsed"})  # change their file arguments only with -i
POWERSHELL_WRITERS = frozenset({
    "set-content", "add-content", "out-file", "remove-item", "copy-item", "move-item", "new-item", "rename-item",
    "clear-content", "sc", "ac", "ri", "del", "erase", "rd", "cpi", "copy", "mi", "move", "ni",
})
POWERSHELL_PATH_FLAGS = ("-path", "-literalpath", "-filepath", "-destination")
FLAGS_WITH_VALUE = {
    "sed": ("-e", "-f", "--expression", "--file", "-l", "--line-length"),
    "perl": ("-e", "-E", "-M", "-m", "-I"),
    "truncate": ("-s", "--size", "-r", "--reference"),
    "install": ("-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory"),
    "cp": ("-t", "--target-directory", "-S", "--suffix"),
    "mv": ("-t", "--target-directory", "-S", "--suffix"),
}
NOT_FILES = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty")


_SPECIAL = frozenset("'\"\\ \t<>&|;\n")


_last = [None, None]  # the last command split and its result: one hook call asks several questions of one command


def split_words(command, powershell=False):
    """Simple commands of ``command``, each a list of words with the shell's quoting removed.

    A redirection becomes the word ``>`` (writes: ``>``, ``>>``, ``2>``, ``&>``) or ``<`` (reads) before its
    target.  A here-document's body is skipped.  In PowerShell a backslash is a path separator, not an escape.
    A ``#`` that begins a word starts a comment, to the end of the line.
    The result must not be changed by the caller (the last one is kept for the next question).
    """
    key = (command, powershell)
    if _last[0] == key:
        return _last[1]
    result = _split_words(command, powershell)
    _last[0], _last[1] = key, result
    return result


def _split_words(command, powershell):
    commands, words, word, quote, has_word, heredocs = [], [], [], None, False, []
    text = command[:MAX_COMMAND_CHARS]
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"' and i + 1 < n:
                i += 1
                word.append(text[i])
            else:
                word.append(c)
        elif c == "#" and not has_word:  # a comment, up to the end of the line
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c not in _SPECIAL:
            word.append(c)
            has_word = True
        elif c in "'\"":
            quote, has_word = c, True
        elif c == "\\":
            if powershell:
                word.append(c)
                has_word = True
            elif i + 1 < n:
                i += 1
                if text[i] != "\n":
                    word.append(text[i])
                    has_word = True
        elif c in " \t":
            if has_word:
                words.append("".join(word))
                word, has_word = [], False
        elif c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            if has_word:
                words.append("".join(word))
                word, has_word = [], False
            j = i + 2
            while j < n and text[j] in "- \t":
                j += 1
            end = j
            while end < n and text[end] not in " \t\n;&|<>":
                end += 1
            delimiter = text[j:end].strip("'\"")
            if delimiter:
                heredocs.append(delimiter)
            i = end
            continue
        elif c in "<>" or c == "&" and text.startswith("&>", i):
            current = "".join(word)
            if has_word and current not in ("0", "1", "2"):
                words.append(current)
            word, has_word = [], False
            j = i + (2 if c == "&" else 1)
            while c == "<" and j < n and text[j] == "<":
                j += 1  # <<< here-string: read
            if c == ">" and j < n and text[j] == ">":
                j += 1  # >>
            if c == ">" and j < n and text[j] == "&":  # >&2: a descriptor, not a file
                j += 1
                while j < n and text[j].isdigit():
                    j += 1
            else:
                words.append("<" if c == "<" else ">")
            i = j
            continue
        else:  # & | ; newline: the end of a simple command
            if has_word:
                words.append("".join(word))
            if words:
                commands.append(words)
            word, words, has_word = [], [], False
            if c == "\n" and heredocs:  # skip each here-document body, up to its delimiter line
                for delimiter in heredocs:
                    while i < n:
                        line_end = text.find("\n", i + 1)
                        line = text[i + 1 : n if line_end < 0 else line_end]
                        i = n if line_end < 0 else line_end
                        if line.strip() == delimiter:
                            break
                heredocs = []
                i += 1
                continue
            i += 2 if text.startswith(("&&", "||"), i) else 1
            continue
        i += 1
    if has_word:
        words.append("".join(word))
    if words:
        commands.append(words)
    return commands


def write_targets(command, powershell=False):
    """The paths ``command`` writes, creates, moves or deletes, in order, without repeats."""
    if not isinstance(command, str) or not command.strip():
        return []
    found = []
    try:
        for words in split_words(command, powershell):
            found.extend(_targets_of(words))
    except Exception:  # a recogniser never breaks the hook
        return []
    seen, out = set(), []
    for path in found:
        if path and path not in seen and not path.startswith(("$", "`")) and path not in NOT_FILES and "://" not in path:
            seen.add(path)
            out.append(path)
    return out[:MAX_TARGETS]


# Commands that run the command after them, with their options that take a value; timeout also takes a duration.
WRAPPERS = {
    "sudo": ("-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "--user", "--group", "--host", "--prompt", "--chdir"),
    "doas": ("-u", "-C"),
    "env": ("-u", "-C", "-S", "--unset", "--chdir", "--split-string"),
    "nice": ("-n", "--adjustment"),
    "timeout": ("-s", "-k", "--signal", "--kill-after"),
    "command": (),
    "nohup": (),
    "time": ("-f", "-o", "--format", "--output"),
}


def strip_wrappers(words):
    """``words`` without leading ``VAR=value`` assignments and wrappers (``sudo -u deploy``, ``env -i``,
    ``timeout 10``, ``nice -n 5``, ``nohup``, ``time``): the command that really runs, and its arguments."""
    i = 0
    while i < len(words):
        word = words[i]
        if "=" in word and not word.startswith(("-", "=")):
            i += 1  # VAR=value
            continue
        takes_value = WRAPPERS.get(word.rsplit("/", 1)[-1])
        if takes_value is None:
            break
        wrapper, i = word.rsplit("/", 1)[-1], i + 1
        while i < len(words) and words[i].startswith("-") and words[i] != "--":
            option = words[i]
            i += 2 if option in takes_value else 1  # "-u deploy"; "--user=deploy" and "-E" are one word
        if i < len(words) and words[i] == "--":
            i += 1
        if wrapper == "timeout" and i < len(words):
            i += 1  # the duration
    return words[i:]


def _targets_of(words):
    targets = []
    rest = []
    i = 0
    while i < len(words):  # redirections first: `> file` writes whatever the command is, `< file` is read
        if words[i] in "<>":
            if words[i] == ">" and i + 1 < len(words):
                targets.append(words[i + 1])
            i += 2
            continue
        rest.append(words[i])
        i += 1
    rest = strip_wrappers(rest)
    if not rest:
        return targets
    name = rest[0].rsplit("/", 1)[-1].lower()
    args = rest[1:]
    if name == "git" and args and args[0] in ("mv", "rm"):
        name, args = "git " + args[0], args[1:]
    if name in POWERSHELL_WRITERS:
        return targets + _powershell_targets(args)
    if name == "dd":
        return targets + [a[3:] for a in args if a.startswith("of=")]
    if name == "find":
        return targets + (_positional(args[:1]) if "-delete" in args else [])
    positional = _positional(args, FLAGS_WITH_VALUE.get(name, ()))
    if name in IN_PLACE:
        if not any(a == "-i" or a.startswith(("-i", "--in-place")) or (a.startswith("-") and not a.startswith("--") and "i" in a[1:]) for a in args):
            return targets
        if not any(a in ("-e", "--expression", "-f", "--file", "-E") or (name == "perl" and a.startswith("-") and "e" in a[1:]) for a in args):
            positional = positional[1:]  # the first operand is the script
        return targets + positional
    if name in ALL_ARGS or name in ("git rm",):
        return targets + positional
    if name in EVERY_PATH_ARG or name == "git mv":
        return targets + positional
    if name in LAST_ARG:
        return targets + positional[-1:]
    if name in FIRST_ARG_IS_MODE:
        return targets + positional[1:]
    return targets


def deletes_recursively(command, powershell=False):
    """True if a simple command of ``command`` deletes a folder and what is in it, by whatever means:
    ``rm -r``, ``find … -delete`` or ``-exec rm``, ``git clean -d``, ``rmdir /s``, ``Remove-Item -Recurse``."""
    if not isinstance(command, str):
        return False
    try:
        for words in split_words(command, powershell):
            words = strip_wrappers(words)
            if not words:
                continue
            name, flags = words[0].rsplit("/", 1)[-1].lower(), [w.lower() for w in words[1:] if w.startswith(("-", "/"))]
            if name == "rm" and any(f in ("-r", "--recursive") or (not f.startswith("--") and ("r" in f[1:] or "R" in f[1:])) for f in flags):
                return True
            if name == "find" and ("-delete" in words or ("-exec" in words and "rm" in words)):
                return True
            if name == "git" and len(words) > 1 and words[1] == "clean" and any("d" in f[1:] for f in flags if not f.startswith("--")):
                return True
            if name in ("rmdir", "rd") and "/s" in flags:
                return True
            if name in ("remove-item", "ri", "del", "rm", "rd", "rmdir") and any(f.startswith("-r") and "-recurse".startswith(f) for f in flags):
                return True
    except Exception:
        return False
    return False


def dispatched_workflows(command, powershell=False):
    """What each ``gh workflow run`` in ``command`` asks the workflow to do, as words: the workflow's name and the
    values of its inputs (``gh workflow run terraform.yml -f workspace=prod -f command=apply`` gives
    ``["terraform", "prod", "apply"]``), so knowledge written about ``terraform apply`` reaches the run."""
    if not isinstance(command, str) or "workflow" not in command:
        return []
    found = []
    try:
        for words in split_words(command, powershell):
            words = strip_wrappers(words)
            if len(words) < 4 or words[0].rsplit("/", 1)[-1] != "gh" or words[1:3] != ["workflow", "run"]:
                continue
            act, take = [], False
            for word in words[3:]:
                if take:
                    act.extend(word.split("=", 1)[1:] or [word])
                    take = False
                elif word in ("-f", "-F", "--field", "--raw-field"):
                    take = True
                elif word.startswith(("--field=", "--raw-field=")):
                    act.extend(word.split("=", 2)[2:])
                elif not word.startswith("-") and not act:
                    act.extend(workflow_name_words(word))
            if act:
                found.append(act)
    except Exception:
        return []
    return found


def workflow_name_words(name):
    """The words of a workflow's file name: ``.github/workflows/deploy_api.yaml`` gives ``["deploy", "api"]``."""
    stem = name.rsplit("/", 1)[-1]
    for suffix in (".yml", ".yaml"):
        stem = stem[: -len(suffix)] if stem.endswith(suffix) else stem
    return [p for p in stem.replace("_", "-").split("-") if p]


READ_PROGRAMS = frozenset((  # programs that only look, whatever their arguments (unless a redirection writes)
    "ls", "cat", "head", "tail", "grep", "egrep", "rg", "wc", "jq", "yq", "pwd", "which", "du", "df", "stat", "file",
    "less", "more", "sort", "uniq", "cut", "tree", "diff", "whoami", "date", "env", "printenv", "id", "uname",
    "get-childitem", "get-content", "select-string", "test-path", "get-item",
))
READ_SUBCOMMANDS = {  # program: its subcommands that only look (the first word after the program's own flags)
    "kubectl": frozenset(("get", "describe", "logs", "top", "explain", "version", "api-resources", "auth", "events")),
    "oc": frozenset(("get", "describe", "logs", "status", "whoami")),
    "helm": frozenset(("list", "ls", "status", "history", "get", "show", "template", "lint", "search", "version")),
    "git": frozenset(("status", "log", "diff", "show", "rev-parse", "describe", "blame", "shortlog", "ls-files",
                      "grep", "reflog", "ls-remote", "whatchanged", "cat-file")),
    "terraform": frozenset(("show", "plan", "output", "validate", "version", "providers", "graph")),
    "tofu": frozenset(("show", "plan", "output", "validate", "version", "providers", "graph")),
    "heroku": frozenset(("logs", "ps", "releases", "info", "apps", "addons", "pg:info", "domains", "status")),
    "docker": frozenset(("ps", "images", "logs", "inspect", "version", "info", "stats")),
    "flux": frozenset(("get", "logs", "tree", "stats", "check")),
    "fly": frozenset(("status", "logs", "releases", "info", "version")),
    "flyctl": frozenset(("status", "logs", "releases", "info", "version")),
    "goose": frozenset(("status", "version")),
    "npm": frozenset(("ls", "list", "view", "info", "outdated", "audit", "why", "explain")),
    "pip": frozenset(("list", "show", "freeze", "check")),
}
READ_TWO_WORDS = frozenset((  # program, subcommand, action: reads spelled in three words
    ("kubectl", "rollout", "status"), ("kubectl", "rollout", "history"), ("kubectl", "config", "view"),
    ("kubectl", "config", "get-contexts"), ("kubectl", "config", "current-context"), ("argocd", "app", "get"),
    ("argocd", "app", "list"), ("argocd", "app", "history"), ("argocd", "app", "diff"), ("gh", "pr", "view"),
    ("gh", "pr", "list"), ("gh", "pr", "status"), ("gh", "pr", "checks"), ("gh", "pr", "diff"), ("gh", "run", "list"),
    ("gh", "run", "view"), ("gh", "run", "watch"), ("gh", "issue", "view"), ("gh", "issue", "list"),
    ("gh", "release", "view"), ("gh", "release", "list"), ("gh", "repo", "view"), ("terraform", "state", "list"),
    ("terraform", "state", "show"), ("tofu", "state", "list"), ("tofu", "state", "show"), ("pulumi", "stack", "ls"),
    ("pulumi", "config", "get"), ("gsutil", "ls", ""), ("aws", "s3", "ls"),
))


def only_reads(command, powershell=False):
    """True if every simple command of ``command`` only looks: a reading program (``ls``, ``cat``, ``grep``, ``jq``),
    or a program's reading subcommand (``kubectl get``, ``git log``, ``helm status``, ``terraform plan``, ``heroku
    logs``, ``kubectl rollout status``, ``gh pr view``, ``git tag -l``), and nothing is written (no redirection to a
    file, :func:`write_targets`).  Knowledge about acts has nothing to say to a command that changes nothing."""
    if not isinstance(command, str) or not command.strip():
        return False
    try:
        commands = split_words(command, powershell)
        if not commands or not all(_reads(words) for words in (strip_wrappers(w) for w in commands) if words):
            return False
    except Exception:
        return False
    return not write_targets(command, powershell)


VALUE_FLAGS = frozenset(("--context", "--kube-context", "-n", "--namespace", "--kubeconfig", "-C", "-a", "--app",
                         "-R", "--repo", "-p", "--project", "--profile", "--region", "-r", "--remote", "-c"))


def _reads(words):
    program = words[0].rsplit("/", 1)[-1].lower()
    if program in READ_PROGRAMS:
        return True
    rest, skip = [], False
    for word in words[1:]:  # the positional words: not flags, not the values of flags that take one
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in VALUE_FLAGS
        else:
            rest.append(word)
    first = rest[0].lower() if rest else ""
    if program == "git" and first in ("tag", "branch"):
        listing = any(w in ("-l", "--list") for w in words[1:])
        return listing or len(rest) == 1  # git tag -l 'sdk/*', git branch -a; not git tag v1.2 or git branch x
    if first in READ_SUBCOMMANDS.get(program, ()):
        return True
    second = rest[1].lower() if len(rest) > 1 else ""
    return (program, first, second) in READ_TWO_WORDS or (program, first, "") in READ_TWO_WORDS


def substituted_versions(command):
    """True if a ``sed``/``perl`` substitution in ``command`` replaces with a version number its pattern does not
    hold: ``s/0.4.0/0.5.0/``, ``s/version: "1.4.2"/version: "1.5.0"/`` (any delimiter)."""
    if not isinstance(command, str) or "s" not in command:
        return False
    from .toolcall import version_numbers

    try:
        for words in split_words(command[:MAX_COMMAND_CHARS]):
            words = strip_wrappers(words)
            if not words or words[0].rsplit("/", 1)[-1] not in IN_PLACE:
                continue
            for word in words[1:]:
                if len(word) > 3 and word[0] == "s" and not word[1].isalnum() and word[1] not in " \\":
                    parts = word.split(word[1])
                    if len(parts) >= 3 and version_numbers(parts[2]) - version_numbers(parts[1]):
                        return True
    except Exception:
        return False
    return False


def release_tags(command, powershell=False):
    """The package names of the version tags ``command`` creates or pushes (``git tag [-a] <tag>``, ``git push
    <remote> <tag>``, ``gh release create <tag>``): the part of the tag before its version, lower case
    (``bazaar-client-v2.4.0`` gives ``bazaar-client``, ``sdk/v1.9.0`` gives ``sdk``)."""
    from .toolcall import version_numbers

    names = set()
    try:
        for words in split_words(command[:MAX_COMMAND_CHARS], powershell):
            words = strip_wrappers(words)
            program = words[0].rsplit("/", 1)[-1].lower() if words else ""
            if program == "git" and len(words) > 2 and words[1] in ("tag", "push"):
                args = words[2:]
            elif program == "gh" and words[1:3] == ["release", "create"]:
                args = words[3:4]
            else:
                continue
            skip = False
            for arg in args:
                if skip:
                    skip = False
                    continue
                if arg in ("-m", "--message", "-F", "--file", "-u", "--local-user", "--title", "--notes", "--notes-file"):
                    skip = True
                    continue
                if arg.startswith("-") or not version_numbers(arg.replace("/", " ").replace("-v", " ").replace("_v", " ")):
                    continue
                name = _tag_package(arg)
                if name:
                    names.add(name)
    except Exception:
        return set()
    return names


def _tag_package(tag):
    """``bazaar-client-v2.4.0`` → ``bazaar-client``; ``sdk/v1.9.0`` → ``sdk``; ``v2.4.0`` or ``2.4.0`` → ``""``."""
    tag = tag.rsplit(":", 1)[-1].replace("refs/tags/", "")
    for separator in ("/v", "/", "-v", "_v", "@v", "@", "-", "_"):
        head, sep, tail = tag.rpartition(separator)
        if sep and head and tail[:1].isdigit():
            return head.lower()
    return ""


DEPLOY_DISPATCH = "gh workflow run deploy"  # what a dispatched deploy workflow reads as, whatever its name
DATA_DESTROYED = "destroys-stored-data"  # what a command that destroys rows reads as: no command is named so
DEPLOY_WORDS = frozenset(("deploy", "deployment", "promote", "promotion", "rollout", "rollback", "ship"))


def deploys(act):
    """True if a dispatched workflow's words (:func:`dispatched_workflows`) say it deploys: ``deploy``,
    ``promote``, ``rollout`` among its name's parts or its input values (``-f env=prod -f action=rollout``).
    A ``release`` workflow is not one: it publishes packages as often as it deploys."""
    return any(part in DEPLOY_WORDS for word in act for part in word.lower().replace("_", "-").split("-"))


DESTROYING_SQL = (" delete from ", " truncate ", " drop table ", " drop schema ", " drop database ", " delete all ",
                  " destroy all ", " update all ")
MIGRATION_UNDO = frozenset(("down", "revert", "rollback", "reset", "undo"))


def destroys_data(command):
    """True if a shell command deletes, overwrites or drops rows of a database: SQL ``DELETE``, ``UPDATE … SET``,
    ``TRUNCATE``, ``DROP``, Rails' ``delete_all``/``destroy_all``/``update_all``; a migration run down (``sqlx
    migrate revert``, ``goose … down``, ``rails db:rollback``).  Read from the folded words, so a statement inside
    ``psql -c "…"`` counts; a ``SELECT`` or ``migrate up`` does not.  Object stores (``aws s3 rm``) are not
    databases: knowledge about destructive SQL does not follow them."""
    if not isinstance(command, str):
        return False
    from .keywords import fold

    text = fold(command[:MAX_COMMAND_CHARS])
    if any(sql in text for sql in DESTROYING_SQL):
        return True
    start = text.find(" update ")
    while start >= 0:
        if " set " in " ".join(text[start:].split()[:5]).join("  "):  # UPDATE <table> [alias] SET
            return True
        start = text.find(" update ", start + 1)
    words = text.split()
    for i, word in enumerate(words):
        if word in ("migrate", "goose", "migration", "migrations", "db") and not MIGRATION_UNDO.isdisjoint(words[i + 1 : i + 12]):
            return True
    return False


def force_pushes(command, powershell=False):
    """True if ``command`` moves a branch the way a force push does: a ``git push`` of a ``+ref`` refspec (``git
    push origin +main``, which git documents as forcing that update), or a ``gh api`` PATCH of a branch ref
    (``gh api -X PATCH repos/o/r/git/refs/heads/main -f sha=…``), which sets the branch head on the server
    without a push."""
    if not isinstance(command, str) or "+" not in command and "refs/heads" not in command:
        return False
    try:
        for words in split_words(command, powershell):
            words = strip_wrappers(words)
            program = words[0].rsplit("/", 1)[-1] if words else ""
            if len(words) > 2 and program == "git" and "push" in words[1:]:
                if any(w.startswith("+") and len(w) > 1 for w in words[words.index("push") + 1 :]):
                    return True
            elif len(words) > 2 and program == "gh" and words[1] == "api" and _patches(words) \
                    and any("git/refs/heads/" in w for w in words):
                return True
    except Exception:
        return False
    return False


def _patches(words):
    """True if a ``gh api`` command's method is PATCH (``-X PATCH``, ``--method=PATCH``)."""
    for i, word in enumerate(words):
        if word in ("-X", "--method") and i + 1 < len(words):
            if words[i + 1].upper() == "PATCH":
                return True
        elif word.upper() in ("-XPATCH", "--METHOD=PATCH"):
            return True
    return False


PRINTERS = frozenset({"echo", "printf", "write-host", "write-output"})  # their arguments are text, not a command


def run_text(command, powershell=False):
    """``command`` as it runs: its simple commands' words one line each, without the text it only prints or
    writes (``echo``/``printf`` arguments, here-document bodies) and without comments, so a runbook note
    ``echo '- never TRUNCATE on prod' >> docs/runbook.md`` holds no ``TRUNCATE``.  Redirections are kept.
    A command with nothing to leave out, or longer than the recogniser reads, is returned as it is."""
    if not isinstance(command, str):
        return ""
    if len(command) > MAX_COMMAND_CHARS:
        return command
    try:
        lines, dropped = [], "#" in command or "<<" in command  # a comment or a here-document body
        for words in split_words(command, powershell):
            program = strip_wrappers(words)
            if program and program[0].rsplit("/", 1)[-1].lower() in PRINTERS:
                kept = words[: len(words) - len(program) + 1]
                kept += [w for i, w in enumerate(words) if w in "<>" or i and words[i - 1] in "<>"]
                words, dropped = kept, True
            lines.append(" ".join(words))
        return "\n".join(lines) if dropped else command  # nothing left out: the command itself
    except Exception:  # a recogniser never breaks the hook
        return command


DRY_RUN_FLAGS = ("--dry-run", "--dryrun", "--what-if", "-whatif", "--noop", "--plan", "--preview-only", "--build-only")
# (also as --dry-run=client); pulumi destroy --preview-only, fly deploy --build-only
DRY_RUN_VERBS = frozenset({"diff"})  # helm diff upgrade, kubectl diff, argocd app diff, cdk diff


BYSTANDERS = frozenset(("cd", "pushd", "popd", "echo", "printf", "cat", "ls", "pwd", "grep", "head", "tail", "jq", "wc",
                        "sort", "true", "sleep", "set-location", "write-host", "write-output"))  # they act on nothing


def dry_run(command, powershell=False):
    """True when ``command`` only rehearses its act: a simple command carries a dry-run flag (``--dry-run``,
    ``-WhatIf``, ``migrate --plan``) or is a ``diff`` of one (``helm diff upgrade``), and every other simple
    command only looks or moves (:data:`BYSTANDERS`): ``helm diff upgrade … && helm upgrade …`` and ``sed -i … &&
    git diff --stat`` are no dry runs."""
    if not isinstance(command, str):
        return False
    rehearsed, real = set(), set()
    try:
        for words in split_words(command, powershell):
            words = strip_wrappers(words)
            if not words:
                continue
            program = words[0].rsplit("/", 1)[-1].lower()
            lows = [w.lower() for w in words[1:]]
            dry = any(w.split("=", 1)[0] in DRY_RUN_FLAGS for w in lows) or not DRY_RUN_VERBS.isdisjoint(
                [w for w in lows[:2] if not w.startswith("-")])
            (rehearsed if dry else real).add(program)
    except Exception:  # a recogniser never breaks the hook
        return False
    return bool(rehearsed) and real <= BYSTANDERS


def _positional(args, flags_with_value=()):
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg == "--":
            continue
        if arg.startswith("-") and len(arg) > 1:
            skip = arg in flags_with_value
            continue
        out.append(arg)
    return out


def _powershell_targets(args):
    out, i = [], 0
    positional = []
    while i < len(args):
        low = args[i].lower()
        if low in POWERSHELL_PATH_FLAGS and i + 1 < len(args):
            out.append(args[i + 1])
            i += 2
            continue
        if low.startswith("-"):
            i += 2 if low in ("-value", "-encoding", "-itemtype", "-newname", "-filter", "-include", "-exclude") else 1
            continue
        positional.append(args[i])
        i += 1
    return out or positional[:1]
