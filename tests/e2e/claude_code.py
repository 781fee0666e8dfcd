"""The real Claude Code CLI for end-to-end tests: installed from npm at a pinned version, run in a sandbox.

:func:`ensure_claude` installs ``@anthropic-ai/claude-code@VERSION`` into a
cache folder the tests own (``.cache/claude-code/<version>`` in the
repository, or ``FOREWARN_CLAUDE_CACHE``) once and returns the binary.
:class:`Sandbox` is one user's world: its own HOME, a project that is a git
repository, and :meth:`Sandbox.run` to drive ``claude -p`` against a
:class:`~fake_anthropic.FakeAnthropic` script with no network.  A plugin's
data folder is ``$HOME/.claude/plugins/data/<plugin>-<marketplace>``:
``forewarn-inline`` with ``--plugin-dir``, ``forewarn-forewarn`` once
installed from this repository's marketplace.
"""

import json
import os
import shutil
import subprocess

from fake_anthropic import FakeAnthropic

VERSION = "2.1.328"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Unavailable(RuntimeError):
    """node or npm is missing, or the install failed: the e2e tests cannot run here."""


def cache_dir():
    return os.environ.get("FOREWARN_CLAUDE_CACHE") or os.path.join(REPO, ".cache", "claude-code", VERSION)


def ensure_claude():
    """The path of the pinned ``claude`` binary, installing it on first use."""
    folder = cache_dir()
    binary = os.path.join(folder, "node_modules", ".bin", "claude")
    if os.path.exists(binary) and _version(binary) == VERSION:
        return binary
    if not shutil.which("node") or not shutil.which("npm"):
        raise Unavailable("node and npm are needed to install Claude Code for the end-to-end tests")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "package.json"), "w") as handle:
        json.dump({"name": "forewarn-e2e-claude", "private": True}, handle)
    proc = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "@anthropic-ai/claude-code@" + VERSION],
        cwd=folder, capture_output=True, text=True, timeout=600,
    )
    if proc.returncode != 0:
        raise Unavailable("npm install failed: " + (proc.stderr or proc.stdout)[-2000:])
    if _version(binary) != VERSION:
        installer = os.path.join(folder, "node_modules", "@anthropic-ai", "claude-code", "install.cjs")
        if os.path.exists(installer):
            subprocess.run(["node", installer], cwd=folder, capture_output=True, timeout=300)
    if _version(binary) != VERSION:
        raise Unavailable("Claude Code %s did not install into %s" % (VERSION, folder))
    return binary


def _version(binary):
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return out.split()[0] if out.strip() else None


def write_graph(project, nodes, name="knowledge.json"):
    folder = os.path.join(project, ".claude", "graphs")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w") as handle:
        json.dump({"directed": True, "multigraph": False, "graph": {}, "nodes": nodes, "links": []}, handle, indent=2)
    return path


class Result:
    """One ``claude -p`` run: exit code, parsed JSON result, and what the model was sent."""

    def __init__(self, proc, api):
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr
        try:
            self.json = json.loads(proc.stdout)
        except ValueError:
            self.json = None
        self.requests = list(api.requests)
        self.agent_requests = list(api.agent_requests)


class Sandbox:
    """A HOME and a git project shared by every session of one test."""

    def __init__(self, claude, tmp_path):
        self.claude = claude
        self.home = str(tmp_path / "home")
        self.project = str(tmp_path / "project")
        os.makedirs(self.home)
        os.makedirs(self.project)
        git = ["git", "-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e"]
        subprocess.run(git + ["init", "-q"], cwd=self.project, check=True)
        subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "init"], cwd=self.project, check=True)

    def env(self, api_url=None, **extra):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "ANTHROPIC", "FOREWARN_", "DISABLE_"))}
        env.update(
            HOME=self.home,
            ANTHROPIC_API_KEY="sk-test-e2e",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_AUTOUPDATER="1",
            FOREWARN_NO_BOOTSTRAP="1",  # no background pip install in tests (tests/test_environment.py covers it)
        )
        if api_url:
            env["ANTHROPIC_BASE_URL"] = api_url
        env.update({k: v for k, v in extra.items() if v is not None})
        for key in [k for k, v in extra.items() if v is None]:
            env.pop(key, None)
        return env

    def cli(self, *args, timeout=120):
        """``claude <args>`` (plugin management and validation) in this sandbox."""
        return subprocess.run([self.claude, *args], cwd=self.project, env=self.env(), capture_output=True, text=True, timeout=timeout)

    def run(self, prompt, script=(), plugin_dir=REPO, tools="Write Edit Read Bash", timeout=180, **env):
        """One ``claude -p`` session against a scripted model; returns a :class:`Result`."""
        with FakeAnthropic(script) as api:
            cmd = [self.claude, "-p", prompt, "--allowedTools", tools, "--output-format", "json"]
            if plugin_dir:
                cmd += ["--plugin-dir", plugin_dir]
            proc = subprocess.run(cmd, cwd=self.project, env=self.env(api.url, **env), capture_output=True, text=True, timeout=timeout)
            return Result(proc, api)

    def data_dir(self, plugin_id="forewarn-inline"):
        return os.path.join(self.home, ".claude", "plugins", "data", plugin_id)

    def path(self, *parts):
        return os.path.join(self.project, *parts)
