"""A PreToolUse call as the scorer sees it: tool, paths, searchable text.

Contract: :class:`ToolCall` is built from the hook input dict of any shape
without raising; missing or mistyped fields simply contribute nothing.
Paths are made relative to the project root with ``/`` separators
(absolute, ``./``, ``..``, Windows ``C:\\x\\y`` and paths outside the
project all handled) and split into segments for :mod:`forewarn.globs`.
A shell ``command`` is also split into simple commands of folded shell
words (:meth:`ToolCall.commands`) for :func:`forewarn.keywords.in_command`.
"""

import os
import posixpath

from .keywords import fold

TOOL_ALIASES = {
    "multiedit": ("edit",),
    "notebookedit": ("edit",),
    "task": ("agent",),
    "agent": ("task",),
    "powershell": ("bash",),
}
FILE_KEYS = ("file_path", "notebook_path", "path")
FILE_EDIT_TOOLS = frozenset(("write", "edit", "multiedit", "notebookedit"))  # tools that edit the file they name
TEXT_KEYS = ("command", "description", "content", "new_string", "prompt", "query", "title", "body", "new_source")
MAX_TEXT_CHARS = 64 * 1024
MAX_BASH_TOKENS = 64
COMMAND_SEPARATORS = ("&&", "||", ";", "|", "\n")  # between simple commands
LOCAL_CLUSTER_PREFIXES = ("kind-", "k3d-")  # the kube contexts kind and k3d create: kind-<cluster>
LOCAL_CLUSTERS = frozenset(("docker-desktop", "rancher-desktop", "orbstack", "colima"))
WORKFLOW_DISPATCHERS = ("run_workflow", "dispatch_workflow", "trigger_workflow")  # MCP tool names end so
LOOKING_VERBS = frozenset((  # a subagent brief that opens with one of these asks for a report, not an act
    "find", "review", "explore", "audit", "list", "search", "locate", "summarise", "summarize", "explain",
    "investigate", "inspect", "check", "look", "read", "analyse", "analyze", "map", "trace", "research", "compare",
    "identify", "count", "diagnose", "understand", "survey", "assess", "evaluate"))
CHANGE_FOLDER = frozenset(("cd", "pushd", "chdir", "set-location", "sl", "push-location"))  # shell and PowerShell


def normalise_path(path, cwd, root):
    """``(segments, outside)`` for ``path`` relative to ``root``; ``([], False)`` if unusable.

    Relative paths are taken from the hook's ``cwd`` (never the process's).
    A path outside the project keeps its absolute segments and
    ``outside=True``, so only unanchored patterns (``**/x``) can match it.
    """
    if not isinstance(path, str) or not path.strip():
        return [], False
    path = path.strip()
    if path.startswith("~"):  # the user's home (in a shell command), never the working folder
        path = os.path.expanduser(path)
        if path.startswith("~"):
            return [p for p in path.replace("\\", "/").split("/")[1:] if p and p != "."], True
    path = path.replace("\\", "/")
    base = (cwd or root or "").replace("\\", "/")
    drive = ""
    if len(path) > 1 and path[1] == ":":
        drive, path = path[:2].lower(), path[2:]
    elif not path.startswith("/"):
        if base:
            if len(base) > 1 and base[1] == ":":
                drive, base = base[:2].lower(), base[2:]
            path = base.rstrip("/") + "/" + path
    path = posixpath.normpath(path)
    if root:
        r = root.replace("\\", "/")
        rdrive = ""
        if len(r) > 1 and r[1] == ":":
            rdrive, r = r[:2].lower(), r[2:]
        r = posixpath.normpath(r)
        same_drive = drive == rdrive
        if same_drive and (path == r or path.startswith(r.rstrip("/") + "/")):
            rel = path[len(r):].lstrip("/")
            return ([p for p in rel.split("/") if p] if rel else []), False
        if same_drive and drive and (path.lower() + "/").startswith(r.lower().rstrip("/") + "/"):
            rel = path[len(r):].lstrip("/")
            return [p for p in rel.split("/") if p], False
    return [p for p in path.split("/") if p and p != "."], True


class ToolCall:
    """One tool call: ``tool``, lookup names, ``paths`` (segment lists), ``file_bearing``.

    ``write_paths``: the paths the call writes without being an edit tool: those a shell command
    writes, creates, moves or deletes (:mod:`forewarn.shell_writes`), or the ``path`` an MCP tool is
    given ``content`` for; also among ``paths``.  ``outside``: the paths that are outside the project.
    ``runs_outside``: a shell command that runs in a folder outside the project — the hook's ``cwd`` is outside
    it, or the command starts by changing to such a folder (``cd ~/src/dotfiles && git push -f``).
    """

    __slots__ = ("tool", "names", "paths", "file_bearing", "write_paths", "display_path", "_input", "_text", "_wordless", "_commands",
                 "_words", "_secret", "outside", "runs_outside", "_run", "_run_commands",
                 "_local", "_dry", "_root", "_cwd", "_brief_files", "_tags", "_reads", "_lower")

    def __init__(self, data, root):
        tool = data.get("tool_name")
        self.tool = tool if isinstance(tool, str) else ""
        low = self.tool.lower()
        self.names = (low,) + TOOL_ALIASES.get(low, ())
        tool_input = data.get("tool_input")
        self._input = tool_input if isinstance(tool_input, dict) else {}
        self._text = None
        self._wordless = None  # set when the text is first folded
        self._commands = None
        self._run = None  # [folded run text, run command or None]
        self._run_commands = None
        self._local = self._dry = None  # computed when first asked
        self._words = None
        self._secret = None
        cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
        self._root, self._cwd, self._brief_files, self._tags, self._reads, self._lower = root, cwd, None, None, None, None
        self.paths = []
        self.outside = []  # those of the paths that are outside the project
        self.display_path = ""
        for key in FILE_KEYS:
            segs, outside = normalise_path(self._input.get(key), cwd, root)
            if segs:
                self.paths.append(segs)
                if outside:
                    self.outside.append(segs)
                if not self.display_path:
                    self.display_path = "/".join(segs)
        self.file_bearing = bool(self.paths)
        self.runs_outside = False
        self.write_paths = []
        if self.paths and low.startswith("mcp__") and isinstance(self._input.get("content"), str):
            self.write_paths = list(self.paths)  # an MCP tool given content for a path writes that file (create_or_update_file)
        if not self.file_bearing:
            command = self._input.get("command")
            if isinstance(command, str):
                for token in _path_tokens(command):
                    segs, _outside = normalise_path(token, cwd, root)
                    if segs:
                        self.paths.append(segs)
                if "bash" in self.names:  # Bash, and PowerShell through its alias
                    from .shell_writes import write_targets

                    self.runs_outside = bool(root) and _runs_outside(command, cwd, root, low == "powershell")
                    for target in write_targets(command, powershell=low == "powershell"):
                        segs, outside = normalise_path(target, cwd, root)
                        if segs:
                            self.write_paths.append(segs)
                            if outside:
                                self.outside.append(segs)
                            if segs not in self.paths:
                                self.paths.append(segs)

    @property
    def read_only(self):
        """True for tools that change nothing (Read, Grep, Glob, ...): no knowledge is injected."""
        from .inject import read_only

        return read_only(self.tool)

    def folded_text(self):
        """The tool input's searchable text, folded, bounded to 64 KiB.

        The well-known keys first (command, description, written text,
        prompts), then any other string field (MCP tools name theirs freely);
        the old text of an edit is left out: it is what is being replaced.
        """
        if self._text is None:
            self._text = self._fold_input(self._input.get("command"))
        return self._text

    def folded_run_text(self):
        """:meth:`folded_text` with a shell command as it runs (:func:`forewarn.shell_writes.run_text`): without
        what it only prints or writes as text, and without comments.  The same as :meth:`folded_text` for other
        tools."""
        if self._run is None:
            self._run = [self.folded_text(), None]
            command = self._input.get("command")
            if "bash" in self.names and isinstance(command, str):
                from .shell_writes import run_text

                ran = run_text(command, self.tool.lower() == "powershell")
                if ran != command:
                    self._run = [self._fold_input(ran), ran]
        return self._run[0]

    def _fold_input(self, command):
        chunks = [self.tool]  # MCP tool names say what they do: mcp__github__create_pull_request
        size = 0
        keys = list(TEXT_KEYS) + [k for k in self._input if k not in TEXT_KEYS and k not in FILE_KEYS and k != "old_string"]
        for key in keys:
            value = command if key == "command" else self._input.get(key)
            if key == "edits" and isinstance(value, list):  # MultiEdit
                value = "\n".join(e.get("new_string", "") for e in value if isinstance(e, dict) and isinstance(e.get("new_string"), str))
            if isinstance(value, str) and value:
                chunk = value[: MAX_TEXT_CHARS - size]
                chunks.append(chunk)
                size += len(chunk)
                if size >= MAX_TEXT_CHARS:
                    break
        if self._wordless is None:
            self._wordless = not any(c.isalpha() for chunk in chunks[1:] for c in chunk)
        if self.display_path:
            chunks.append(self.display_path)
        return fold("\n".join(chunks))

    def commands(self, run=False):
        """The ``command`` input's simple commands, each a list of its shell words folded one by one.

        Empty when the input has no ``command`` string; bounded like :meth:`folded_text`.  A shell command that
        deletes a folder recursively by other means (``find -delete``, ``Remove-Item -Recurse``, ``git clean
        -d``) also gets the simple command ``rm -rf``, so knowledge written about ``rm -rf`` reaches it; a push
        of a ``+ref`` (which git documents as forcing that update) gets ``git push --force``; a ``gh workflow run``
        gets the workflow's name and input values as a simple command of their own (``terraform prod apply``).
        With ``run``, the command as it runs (:meth:`folded_run_text`): printed text and comments left out.
        """
        if run:
            self.folded_run_text()
            if self._run[1] is not None:
                if self._run_commands is None:
                    self._run_commands = self._split_commands(self._run[1])
                return self._run_commands
        if self._commands is None:
            command = self._input.get("command")
            self._commands = self._split_commands(command) if isinstance(command, str) else self._mcp_dispatch()
        return self._commands

    def _mcp_dispatch(self):
        """An MCP tool that dispatches a workflow (``mcp__github__run_workflow``) as the simple commands a ``gh
        workflow run`` of it would give: its name and inputs, and ``gh workflow run deploy`` if it deploys."""
        name = self._input.get("workflow_id") or self._input.get("workflow")
        if not self.tool.lower().endswith(WORKFLOW_DISPATCHERS) or not isinstance(name, str):
            return []
        from .shell_writes import DEPLOY_DISPATCH, deploys, workflow_name_words

        inputs = self._input.get("inputs")
        act = workflow_name_words(name) + [v for v in (inputs.values() if isinstance(inputs, dict) else ()) if isinstance(v, str)]
        found = [[w for w in (fold(word) for word in act) if w.strip()]]
        if deploys(act):
            found.append([fold(word) for word in DEPLOY_DISPATCH.split()])
        return found

    def _split_commands(self, command):
        found = []
        command = command[:MAX_TEXT_CHARS]
        from .shell_writes import destroys_data

        destroys = "bash" in self.names and destroys_data(command)  # as given: the run text, when asked for it
        for separator in COMMAND_SEPARATORS:
            command = command.replace(separator, "\n")
        for line in command.split("\n"):
            words = [w for w in (fold(word) for word in line.split()) if w.strip()]
            if words:
                found.append(words)
        if "bash" in self.names:
            from .shell_writes import DATA_DESTROYED, DEPLOY_DISPATCH, deletes_recursively, deploys, dispatched_workflows, force_pushes

            command, powershell = self._input["command"], self.tool.lower() == "powershell"
            if deletes_recursively(command, powershell):
                found.append([fold("rm"), fold("-rf")])  # any recursive deletion reads as the rm -rf it is
            if force_pushes(command, powershell):
                found.append([fold("git"), fold("push"), fold("--force")])  # git push origin +main
            if destroys:
                found.append([fold(word) for word in DATA_DESTROYED.split()])  # UPDATE … SET, DROP TABLE, migrate down
            for act in dispatched_workflows(command, powershell):
                found.append([w for w in (fold(word) for word in act) if w.strip()])  # gh workflow run
                if deploys(act):
                    found.append([fold(word) for word in DEPLOY_DISPATCH.split()])
        return found

    def local_cluster(self):
        """The local Kubernetes context a shell command names (``--context kind-clinic``, ``k3d-dev``,
        ``docker-desktop``), or None.  Read from the command's words, not folded: ``kind: Deployment`` is no
        cluster."""
        if self._local is None:
            self._local = [None]
            command = self._input.get("command")
            if "bash" in self.names and isinstance(command, str):
                for word in command[:MAX_TEXT_CHARS].replace("=", " ").split():
                    word = word.strip("'\"").lower()
                    if word.startswith(LOCAL_CLUSTER_PREFIXES) and len(word) > 4 and "." not in word and "/" not in word \
                            or word in LOCAL_CLUSTERS:  # a context's name, not a file's (kind-values.yaml)
                        self._local = [word]
                        break
        return self._local[0]

    def dry_run(self):
        """True for a shell command that only rehearses its act (:func:`forewarn.shell_writes.dry_run`)."""
        if self._dry is None:
            self._dry = False
            if "bash" in self.names:
                from .shell_writes import dry_run

                self._dry = dry_run(self._input.get("command"), self.tool.lower() == "powershell")
        return self._dry

    def words(self):
        """The distinct folded words of the tool input and of its simple commands (a set, computed once)."""
        if self._words is None:
            found = set(self.folded_text().split())
            for command in self.commands():
                for word in command:
                    found.update(word.split())
            self._words = found
        return self._words

    def carries_secret(self):
        """True when the call writes a secret value or a secret file (:func:`forewarn.secret_signal.carries_secret`)."""
        if self._secret is None:
            from .secret_signal import carries_secret

            edits = not FILE_EDIT_TOOLS.isdisjoint(self.names)
            targets = self.paths if edits else self.write_paths
            written = [segs for segs in targets if segs not in self.outside]
            # a call that writes only outside the project (~/.aws/credentials) is not this project's matter
            self._secret = bool(written or not targets) and carries_secret(self._input, written, shell="bash" in self.names)
        return self._secret

    def bumps_version(self):
        """True for an edit that sets a new version: a line of its new text holds a version number the old text
        does not, and says ``version`` (``version = "0.8.0"``, ``VERSION = "2.4.0"``, ``version: 2.4.0+42``) or
        is a Markdown heading (``## [2.4.0] - 2026-03-02`` in a changelog).  A dependency's version
        (``{:nimble_csv, "~> 1.2"}``) is none.  For a shell command: an in-place substitution whose replacement
        holds a version number its pattern does not (``sed -i 's/0.4.0/0.5.0/' plugin.json``)."""
        command = self._input.get("command")
        if isinstance(command, str):
            from .shell_writes import substituted_versions

            return "bash" in self.names and bool(self.write_paths) and substituted_versions(command)
        edits = self._input.get("edits") if isinstance(self._input.get("edits"), list) else [self._input]
        for edit in edits:
            if not isinstance(edit, dict) or not isinstance(edit.get("new_string"), str):
                continue
            old = edit.get("old_string") if isinstance(edit.get("old_string"), str) else ""
            before = version_numbers(old)
            for line in edit["new_string"][:MAX_TEXT_CHARS].splitlines():
                if ("version" in line.lower() or line.lstrip().startswith("#")) and version_numbers(line) - before:
                    return True
        return False

    def holds_literally(self, literal):
        """True if the tool input holds ``literal`` (a keyword as written, lower case), outside the text an edit
        replaces (:func:`forewarn.keywords.holds_literally`)."""
        from .keywords import holds_literally

        if self._lower is None:
            keys = list(TEXT_KEYS) + [k for k in self._input if k not in TEXT_KEYS and k not in FILE_KEYS and k != "old_string"]
            self._lower = "\n".join(v for v in (self._input.get(k) for k in keys) if isinstance(v, str))[:MAX_TEXT_CHARS].lower()
        return holds_literally(literal, self._lower)

    def only_in_lowercase_prose(self, folded_keyword):
        """True if a keyword written in capitals (``UPDATE``) occurs in a shell call only in its prose description,
        and not in capitals there ("Update my rebased branch"): the English word, not the command's."""
        if "bash" not in self.names:
            return False
        command, description = self._input.get("command"), self._input.get("description")
        if not isinstance(description, str) or isinstance(command, str) and folded_keyword in fold(command[:MAX_TEXT_CHARS]):
            return False
        from .keywords import fold_keeping_case

        return folded_keyword.upper() not in fold_keeping_case(description[:MAX_TEXT_CHARS])

    def only_reads(self):
        """True for a shell command that only looks (:func:`forewarn.shell_writes.only_reads`: ``kubectl get``,
        ``git log``, ``terraform plan``, ``heroku logs``)."""
        if self._reads is None:
            self._reads = False
            command = self._input.get("command")
            if "bash" in self.names and isinstance(command, str):
                from .shell_writes import only_reads

                self._reads = only_reads(command, self.tool.lower() == "powershell")
        return self._reads

    def release_tags(self):
        """The package names of the version tags a shell command creates or pushes, or of the GitHub release it
        creates: ``git tag -a client-v2.4.0``, ``git push origin sdk/v1.9.0``, ``gh release create sdk-v2.4.0``
        give ``client`` and ``sdk`` (lower case); a tag without a name before its version (``v2.4.0``) gives none."""
        if self._tags is None:
            self._tags = set()
            command = self._input.get("command")
            if "bash" in self.names and isinstance(command, str) and ("tag" in command or "release" in command or "push" in command) \
                    and any(c.isdigit() for c in command):  # a version tag holds a number
                from .shell_writes import release_tags

                self._tags = release_tags(command, self.tool.lower() == "powershell")
        return self._tags

    @property
    def delegates(self):
        """True for a subagent brief (Task, Agent) that asks for work done: the subagent does it with tools of its
        own.  A brief whose description opens with a verb of looking (``Find PHI in logs``, ``Review webhook
        handlers``) asks for a report, not an act."""
        if self.tool.lower() not in ("task", "agent"):
            return False
        description = self._input.get("description")
        words = description.split(None, 1) if isinstance(description, str) else []
        return not words or words[0].lower().strip(".,:") not in LOOKING_VERBS

    def brief_files(self):
        """The files a subagent brief names (``libs/client/pom.xml``): words of its prompt and description that
        are paths whose last part has an extension, as segments relative to the project; folders, version
        numbers (``v1.6.0``) and dotted commands (``hex.publish``) are left out."""
        if self._brief_files is None:
            self._brief_files = []
            text = " ".join(v for v in (self._input.get("description"), self._input.get("prompt")) if isinstance(v, str))
            for token in _path_tokens(text[:MAX_TEXT_CHARS]):
                token = token.rstrip(".,:;!?")
                ext = token.rsplit("/", 1)[-1].rpartition(".")[2]
                if 0 < len(ext) <= 5 and any(c.isalpha() for c in ext):  # pom.xml; not v1.6.0, not mix hex.publish
                    segs, _outside = normalise_path(token, self._cwd, self._root)
                    if segs:
                        self._brief_files.append(segs)
        return self._brief_files

    @property
    def wordless(self):
        """True when the tool input carries no word at all (an edit of ``1.3.0`` to ``1.4.0``)."""
        self.folded_text()
        return self._wordless


def version_numbers(text):
    """The version numbers in ``text``: runs of two or three dot-separated numbers (``1.5``, ``2.4.0``), a
    leading ``v`` and a ``+build`` or ``-pre`` suffix dropped."""
    found = set()
    for word in text[:MAX_TEXT_CHARS].replace('"', " ").replace("'", " ").replace("[", " ").replace("]", " ").split():
        word = word.strip(",;:()").lstrip("vV=").split("+", 1)[0].split("-", 1)[0]  # 2.4.0+42, 2.5.0-rc.1
        parts = word.split(".")
        if 2 <= len(parts) <= 3 and all(p.isdigit() for p in parts):
            found.add(word)
    return found


def _runs_outside(command, cwd, root, powershell):
    """True when a shell command runs outside the project: its first simple command changes to a folder outside
    the project, or it changes to none and ``cwd`` is outside (a ``cd`` to a variable or ``-`` is not followed)."""
    from .shell_writes import split_words

    commands = split_words(command, powershell)
    first = commands[0] if commands else []
    if len(first) >= 2 and first[0].lower() in CHANGE_FOLDER:
        target = next((w for w in first[1:] if not w.startswith("-") or w == "-"), "")
        if target.startswith(("$", "-", "`")) or not target:
            return False
        segs, outside = normalise_path(target, cwd, root)
        return outside
    if not cwd:
        return False
    return normalise_path(cwd, None, root)[1]


def _path_tokens(command):
    """Words of a shell command that look like paths (contain ``/`` or a dot, ``.env`` too, not a
    sentence's final one), flags, URLs, variables and version numbers dropped."""
    found = []
    for word in command.replace(";", " ").replace("|", " ").replace("&", " ").replace(">", " ").replace("<", " ").split()[:MAX_BASH_TOKENS]:
        word = word.strip("'\"`()")
        if word.startswith("-"):
            eq = word.find("=")
            if eq < 0:
                continue
            word = word[eq + 1 :].strip("'\"")
        if not word or "://" in word or word.startswith("$"):
            continue
        if "/" in word or ("." in word.rstrip(".") and not word.replace(".", "").isdigit()):
            found.append(word)
    return found
