"""The repository environment the analyzers get: site-packages of a ready environment (so
imports of installed packages resolve), none otherwise, with the reason."""

from __future__ import annotations

from pathlib import Path

from seebench.sandbox import open_sandbox
from seebench.suites.copilot.repo_fix import envs
from seebench.suites.copilot.repo_fix.repo_analysis import RepoAnalysisRunner, RepoJob
from seebench.suites.copilot.repo_fix.repo_analyzers import repo_analyzer
from seebench.suites.copilot.repos.staging import StagedRepo
from seebench.suites.copilot.repos.types import RepoEnv

REPO = StagedRepo("example/tiny", "a" * 40, "python", True, Path("/nonexistent.tar"))


def _fake_env(monkeypatch, env: RepoEnv) -> None:
    import seebench.suites.copilot.repos.envs as repo_envs

    monkeypatch.setattr(repo_envs, "ensure_env", lambda repo, build=True: env)
    envs.env_paths.cache_clear()


def _env(root: Path | None, status: str = "ready", reason: str = "") -> RepoEnv:
    return RepoEnv(
        slug=REPO.slug,
        repo=REPO.repo,
        commit=REPO.commit,
        language="python",
        status=status,  # type: ignore[arg-type]
        reason=reason,
        root=root,
        manifest_sha256="m" * 64,
    )


def test_a_ready_environment_gives_its_site_packages(monkeypatch, tmp_path):
    site = tmp_path / "env" / "venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    _fake_env(monkeypatch, _env(tmp_path / "env"))
    paths = envs.env_paths(REPO, "pylint")
    assert paths.python_paths == (str(site),) and paths.venv == str(tmp_path / "env" / "venv")
    assert paths.mounts == (str(tmp_path / "env"),) and paths.note.startswith("ready")
    assert paths.key != "none"
    assert envs.env_paths(REPO, "eslint").note.startswith("none: installed packages")


def test_no_environment_unless_ready(monkeypatch, tmp_path):
    _fake_env(monkeypatch, _env(None, "excluded", "not built: run seebench copilot envs --build"))
    paths = envs.env_paths(REPO, "pyright")
    assert paths.key == "none" and paths.python_paths == ()
    assert paths.note == "none: environment excluded: not built: run seebench copilot envs --build"
    _fake_env(monkeypatch, _env(tmp_path))  # ready, but no site-packages under it
    assert envs.env_paths(REPO, "pyright").note.startswith("none: no site-packages")


def test_imports_of_installed_packages_resolve_with_the_environment(
    monkeypatch, tmp_path, analyzer_ok
):
    analyzer_ok("pylint")
    site = tmp_path / "env" / "venv" / "lib" / "python3.11" / "site-packages"
    (site / "extpkg").mkdir(parents=True)
    (site / "extpkg" / "__init__.py").write_text("def run():\n    return 1\n")
    files = {"app.py": "import extpkg\n\nextpkg.run()\nextpkg.missing()\n"}
    _fake_env(monkeypatch, _env(tmp_path / "env"))
    with_env = envs.env_paths(REPO, "pylint")
    tool = repo_analyzer("pylint")
    with open_sandbox(extra_mounts=tool.mounts(with_env)) as sandbox:
        runner = RepoAnalysisRunner(tool, sandbox)
        bare, resolved = runner.analyse([RepoJob(files), RepoJob(files, with_env)])
    assert [d.rule for d in bare.of("app.py")] == ["import-error"], bare
    assert [d.rule for d in resolved.of("app.py")] == ["no-member"], resolved


def test_the_scorer_identity_changes_when_an_environment_becomes_ready():
    import json

    from seebench.suites.copilot.repo_fix.scorer import RepoFixScorer
    from seebench.suites.copilot.repos.staging import repos_dir

    before = RepoFixScorer("pylint").identity()
    record = repos_dir() / "envs" / "x+y@1-m" / "record.json"
    record.parent.mkdir(parents=True)
    record.write_text(json.dumps({"env": {"status": "failed", "manifest_sha256": "m"}}))
    assert RepoFixScorer("pylint").identity() == before
    record.write_text(json.dumps({"env": {"status": "ready", "manifest_sha256": "m"}}))
    assert RepoFixScorer("pylint").identity() != before
    assert "ready_environments" not in RepoFixScorer("eslint").identity()
