"""Install the pinned Claude Code CLI from npm into a cache folder the tests own.

    python tests/e2e/install_claude_code.py      # installs if needed, prints the binary's path

The folder is ``<cache>/<version>`` where ``<cache>`` is ``FOREWARN_CLAUDE_CACHE``
or ``.cache/claude-code`` in the repository root (gitignored).  The install is
idempotent: when the package at that version and its native binary are
already there, nothing runs.  ``@anthropic-ai/claude-code``'s postinstall
copies the platform's native binary over a small ``bin/claude.exe`` stub; if
npm skipped install scripts (``ignore-scripts``), :func:`ensure_claude` runs
``install.cjs`` itself.  Only the npm registry is contacted, and only on the
first install.  Claude Code's package asks for Node 22; npm warns under Node
20 and installs anyway, and the binary itself does not use node.
"""

import contextlib
import json
import os
import shutil
import subprocess
import sys

VERSION = "2.1.328"
PACKAGE = "@anthropic-ai/claude-code"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUB_MAX_BYTES = 1 << 20  # the placeholder bin/claude.exe is a few KB; the native binary hundreds of MB


class Unavailable(RuntimeError):
    """node or npm is missing, or the install failed: Claude Code cannot run here."""


def cache_root():
    return os.environ.get("FOREWARN_CLAUDE_CACHE") or os.path.join(REPO, ".cache", "claude-code")


def install_dir(version=VERSION):
    return os.path.join(cache_root(), version)


def binary_path(version=VERSION):
    return os.path.join(install_dir(version), "node_modules", ".bin", "claude")


def _package_dir(folder):
    return os.path.join(folder, "node_modules", *PACKAGE.split("/"))


def _installed_version(folder):
    try:
        with open(os.path.join(_package_dir(folder), "package.json"), encoding="utf-8") as handle:
            return json.load(handle).get("version")
    except (OSError, ValueError):
        return None


def _native_present(folder):
    """True once ``bin/claude.exe`` is the real binary, not the postinstall's placeholder stub."""
    try:
        return os.path.getsize(os.path.join(_package_dir(folder), "bin", "claude.exe")) > STUB_MAX_BYTES
    except OSError:
        return False


def binary_version(binary):
    """What ``claude --version`` reports (``"2.1.328"``), or None if it does not run."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return out.split()[0] if out.strip() else None


def is_installed(version=VERSION):
    folder = install_dir(version)
    return (
        _installed_version(folder) == version
        and _native_present(folder)
        and binary_version(binary_path(version)) == version
    )


@contextlib.contextmanager
def _install_lock(folder):
    """One installer at a time per folder (parallel pytest runs, a benchmark beside the tests)."""
    try:
        import fcntl
    except ImportError:  # Windows: no lock, no parallel runs expected
        yield
        return
    with open(os.path.join(folder, ".install.lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(cmd, cwd, timeout):
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Unavailable("%s timed out after %d s" % (" ".join(cmd[:2]), timeout))
    if proc.returncode != 0:
        raise Unavailable("%s failed (exit %d): %s" % (" ".join(cmd[:2]), proc.returncode, (proc.stderr or proc.stdout)[-2000:]))
    return proc


def ensure_claude(version=VERSION, log=None):
    """The path of the pinned ``claude`` binary, installing it first if needed.

    Raises :class:`Unavailable` with the reason when it cannot be had.
    """
    binary = binary_path(version)
    if is_installed(version):
        return binary
    missing = [tool for tool in ("node", "npm") if not shutil.which(tool)]
    if missing:
        raise Unavailable("%s not found on PATH: they are needed to install Claude Code %s for the end-to-end tests"
                          % (" and ".join(missing), version))
    folder = install_dir(version)
    os.makedirs(folder, exist_ok=True)
    with _install_lock(folder):
        if is_installed(version):  # another process finished it while we waited
            return binary
        if log:
            log("installing %s@%s into %s" % (PACKAGE, version, folder))
        with open(os.path.join(folder, "package.json"), "w", encoding="utf-8") as handle:
            json.dump({"name": "forewarn-e2e-claude-code", "private": True, "dependencies": {PACKAGE: version}}, handle)
        _run(["npm", "install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error", "%s@%s" % (PACKAGE, version)],
             folder, timeout=900)
        if not _native_present(folder):
            # npm ran without install scripts: do the postinstall's work (copy the platform binary over the stub).
            _run(["node", os.path.join(_package_dir(folder), "install.cjs")], _package_dir(folder), timeout=300)
        found = binary_version(binary)
        if found != version:
            raise Unavailable("Claude Code %s did not install into %s (`claude --version` gave %r)" % (version, folder, found))
    return binary


def main(argv=None):
    try:
        print(ensure_claude(log=lambda message: print(message, file=sys.stderr)))
    except Unavailable as exc:
        print("cannot install Claude Code: %s" % exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
