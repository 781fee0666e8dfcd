"""Run the real Claude Code CLI in a sandbox against the scripted model (fake_anthropic).

:class:`Sandbox` is one user's world for one test: its own HOME (so its own
``~/.claude`` settings, plugin cache and plugin data folders), a project
folder that is a git repository with one commit, and :meth:`Sandbox.run` to
drive ``claude -p`` against a :class:`~fake_anthropic.FakeAnthropic` script
with no network.  Every session run in one sandbox shares that HOME and
project, which is what multi-session tests need (:meth:`Sandbox.run_sessions`).

CLAUDE_PLUGIN_DATA, as Claude Code 2.1.328 sets it for a plugin's hooks
(observed with a probe plugin that echoed its environment):
``$HOME/.claude/plugins/data/<plugin>-<marketplace>``, created by Claude Code
before the first hook runs.  Under ``--plugin-dir`` the marketplace part is
``inline`` (``forewarn-inline``); installed from this repository's
marketplace it is ``forewarn-forewarn``.  ``--plugin-dir`` wins over an
installed copy of the same plugin, and then the hooks see ``forewarn-inline``.
If a regular file stands where the folder goes, Claude Code still sets the
variable to that path and runs the hooks; every write under it fails.

CLAUDE_PLUGIN_ROOT of a plugin installed from a local-folder marketplace is
that folder (the marketplace's ``source: "./"``), not the copy Claude Code
makes in ``~/.claude/plugins/cache/<marketplace>/<plugin>/<version>``.
"""

import json
import os
import shutil
import signal
import subprocess

from fake_anthropic import FakeAnthropic, all_text, hook_contexts, tool_result_messages
from install_claude_code import REPO, VERSION, Unavailable, ensure_claude  # noqa: F401  (re-exported)

SESSION_TIMEOUT = 120  # seconds for one `claude -p` session; a healthy one here takes 1-3 s
CLI_TIMEOUT = 120
DEFAULT_TOOLS = "Write Edit Read Bash"
INLINE_DATA = "forewarn-inline"  # CLAUDE_PLUGIN_DATA's folder name under --plugin-dir
INSTALLED_DATA = "forewarn-forewarn"  # ... once installed as forewarn@forewarn

# Inherited variables that would point Claude Code, or forewarn, at the outer user's world.
# (GIT_*: a test run from inside a git hook would otherwise point every git call at the outer repository.)
STRIPPED_PREFIXES = ("CLAUDE", "ANTHROPIC", "FOREWARN_", "DISABLE_", "XDG_", "OTEL_", "GIT_")


class SessionTimeout(AssertionError):
    """A ``claude -p`` session did not finish in time (its process group was killed)."""


def write_graph(project, nodes, name="knowledge.json", links=()):
    """A node-link graph file in ``<project>/.claude/graphs/<name>``; returns its path."""
    folder = os.path.join(project, ".claude", "graphs")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"directed": True, "multigraph": False, "graph": {}, "nodes": list(nodes), "links": list(links)}, handle, indent=2)
    return path


def export_plugin(source, dest):
    """Copy what a clone of ``source`` would hold (tracked and new files, not ignored ones) to ``dest``.

    ``claude plugin install`` copies the whole plugin folder into the
    plugin cache; from a working tree that includes ``.venv``, ``.cache``
    (this very Claude Code, ~370 MB) and the like, which takes ~20 s and is
    not what a user installing from the repository gets.  Falls back to a
    copy without the usual ignored folders when ``source`` is not a git work tree.
    """
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=source, capture_output=True, check=True, timeout=60,
        ).stdout.decode("utf-8").split("\0")
    except (OSError, subprocess.SubprocessError):
        ignored = shutil.ignore_patterns(".git", ".venv", ".cache", "node_modules", "__pycache__", ".pytest_cache",
                                         ".hypothesis", ".benchmarks", "*.pyc")
        shutil.copytree(source, dest, ignore=ignored, symlinks=True)
        return dest
    for rel in filter(None, listing):
        src = os.path.join(source, rel)
        if not os.path.lexists(src):  # deleted in the work tree, not yet committed
            continue
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(src, target, follow_symlinks=False)
    return dest


class Result:
    """One ``claude -p`` session: exit code, the parsed ``--output-format json`` result, what the model was sent."""

    def __init__(self, returncode, stdout, stderr, api):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        try:
            self.json = json.loads(stdout)
        except ValueError:
            self.json = None
        self.requests = list(api.requests)
        self.agent_requests = list(api.agent_requests)
        self.tool_calls = list(api.tool_calls)
        self.calls = list(api.calls)

    @property
    def completed(self):
        """Exit 0 with a result JSON that is not an error."""
        return self.returncode == 0 and isinstance(self.json, dict) and self.json.get("is_error") is False

    def describe(self):
        """Enough to see why a session went wrong, for assertion messages."""
        return "exit %s, %d requests (%d with tools)\nstdout: %s\nstderr: %s" % (
            self.returncode, len(self.requests), len(self.agent_requests), self.stdout[-1500:], self.stderr[-1500:])

    @property
    def first_request(self):
        return self.agent_requests[0]

    def after_tool(self, index):
        """The messages that came back to the model with the ``index``-th scripted tool call (result + hook blocks)."""
        call = self.tool_calls[index]
        messages = tool_result_messages(self.agent_requests, call["id"])
        assert messages is not None, "no request carried the result of tool call %d (%s)" % (index, call["name"])
        return messages

    def after_tool_text(self, index):
        return all_text({"messages": self.after_tool(index)})

    def hook_contexts(self, event, after_tool=None):
        """Hook blocks for ``event`` in the first request, or next to the result of tool call ``after_tool``."""
        if after_tool is None:
            return hook_contexts(self.first_request, event)
        return hook_contexts(self.after_tool(after_tool), event)


class Sandbox:
    """A HOME and a git project shared by every session of one test."""

    def __init__(self, claude, tmp_path):
        self.claude = claude
        self.root = str(tmp_path)
        self.home = os.path.join(self.root, "home")
        self.project = os.path.join(self.root, "project")
        self.sessions = 0
        os.makedirs(self.home)
        os.makedirs(self.project)
        with open(os.path.join(self.home, ".gitconfig"), "w") as handle:
            handle.write("[user]\n\tname = forewarn e2e\n\temail = e2e@example.invalid\n[init]\n\tdefaultBranch = main\n")
        with open(self.path("notes.txt"), "w") as handle:
            handle.write("a demo project\n")
        for args in (["init", "-q"], ["add", "notes.txt"], ["commit", "-q", "-m", "init"]):
            subprocess.run(["git", *args], cwd=self.project, env=self.env(), check=True, capture_output=True)

    def env(self, api_url=None, **extra):
        """The environment of every ``claude`` run: the outer one minus anything that names the outer user's setup.

        ``extra`` adds variables; a value of None removes one.
        """
        env = {k: v for k, v in os.environ.items() if not k.startswith(STRIPPED_PREFIXES)}
        env.update(
            HOME=self.home,
            ANTHROPIC_API_KEY="sk-test",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_AUTOUPDATER="1",
            FOREWARN_NO_BOOTSTRAP="1",  # no background pip install in a session (tests/test_environment.py covers it)
        )
        if api_url:
            env["ANTHROPIC_BASE_URL"] = api_url
        for key, value in extra.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        return env

    def _spawn(self, cmd, env, timeout):
        """Run ``cmd`` in its own process group; on timeout kill the group (hooks included) and raise."""
        proc = subprocess.Popen(cmd, cwd=self.project, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            raise SessionTimeout("%s did not finish in %d s\nstdout: %s\nstderr: %s" % (
                " ".join(cmd[1:3]), timeout, out.decode("utf-8", "replace")[-1500:], err.decode("utf-8", "replace")[-1500:]))
        return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")

    def cli(self, *args, timeout=CLI_TIMEOUT):
        """``claude <args>`` (plugin management and validation) in this sandbox; a CompletedProcess.

        Runs against a scripted model too: without ANTHROPIC_BASE_URL on
        loopback, ``plugin marketplace add`` and ``plugin install`` try to
        reach api.anthropic.com and spend ~18 s each on DNS retries here.
        """
        cmd = [self.claude, *args]
        with FakeAnthropic() as api:
            code, out, err = self._spawn(cmd, self.env(api.url), timeout)
        return subprocess.CompletedProcess(cmd, code, out, err)

    def run(self, prompt, script=(), plugin_dir=REPO, tools=DEFAULT_TOOLS, timeout=SESSION_TIMEOUT, args=(), **env):
        """One ``claude -p PROMPT`` session against a scripted model; returns a :class:`Result`.

        ``plugin_dir=None`` runs without ``--plugin-dir`` (no plugin, or the
        installed one after :meth:`install_plugin`).  Extra keyword
        arguments are environment variables for this session.  Every request
        body is also logged to ``<sandbox>/requests-<n>.jsonl``.
        """
        self.sessions += 1
        log_path = os.path.join(self.root, "requests-%d.jsonl" % self.sessions)
        with FakeAnthropic(script, log_path=log_path) as api:
            cmd = [self.claude, "-p", prompt, "--allowedTools", tools, "--output-format", "json", *args]
            if plugin_dir:
                cmd += ["--plugin-dir", plugin_dir]
            code, out, err = self._spawn(cmd, self.env(api.url, **env), timeout)
            return Result(code, out, err, api)

    def run_sessions(self, sessions, **common):
        """Several sessions one after another in this same HOME and project (the learning loop's shape).

        ``sessions`` is a list of ``(prompt, script)`` or ``(prompt, script,
        {keyword arguments for run})``; ``common`` applies to each.  Stops at
        the first session that does not complete and returns the results so far.
        """
        results = []
        for spec in sessions:
            prompt, script = spec[0], spec[1]
            kwargs = dict(common, **(spec[2] if len(spec) > 2 else {}))
            results.append(self.run(prompt, script, **kwargs))
            if not results[-1].completed:
                break
        return results

    def install_plugin(self, source=REPO, name="forewarn@forewarn"):
        """``claude plugin marketplace add`` a clean export of ``source``, then ``claude plugin install name``.

        Returns the two CompletedProcess objects.  Later ``run(...,
        plugin_dir=None)`` sessions use the installed plugin.
        """
        marketplace = export_plugin(source, os.path.join(self.root, "marketplace"))
        add = self.cli("plugin", "marketplace", "add", marketplace)
        install = self.cli("plugin", "install", name) if add.returncode == 0 else None
        return add, install

    def data_dir(self, folder=INLINE_DATA):
        """CLAUDE_PLUGIN_DATA for the plugin's hooks (see the module docstring for the naming)."""
        return os.path.join(self.home, ".claude", "plugins", "data", folder)

    def path(self, *parts):
        return os.path.join(self.project, *parts)
