"""Shared test set-up: a project on disk with forewarn's folders isolated from the user's."""


def isolated_project(tmp_path, monkeypatch, name="project"):
    """``tmp_path/name`` with ``.git`` and ``.claude/graphs``; forewarn's data and user graphs under ``tmp_path``.

    Clears the variables that would leak the developer's own setup into a
    test (CLAUDE_PROJECT_DIR, CLAUDE_PLUGIN_DATA, DISABLE_EXPERIENCE_INJECTION)
    and turns off the background environment bootstrap.
    """
    root = tmp_path / name
    (root / ".claude" / "graphs").mkdir(parents=True)
    (root / ".git").mkdir()
    monkeypatch.setenv("FOREWARN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FOREWARN_USER_GRAPHS", str(tmp_path / "user-graphs"))
    monkeypatch.setenv("FOREWARN_NO_BOOTSTRAP", "1")
    for var in ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_DATA", "DISABLE_EXPERIENCE_INJECTION"):
        monkeypatch.delenv(var, raising=False)
    return root
