"""Plugins packaged as documented work once installed: the files of docs/plugins.md and
plugins/seebench-example are each built into a wheel, installed (not editable) into a fresh
virtual environment next to seebench, and that environment lists the plugin's tasks (from
the installed package, not the source folder), evaluates one and passes ``plugins check``.

The environment is made without pip and sees seebench's installed dependencies through a
``.pth`` file (offline and fast); seebench itself comes from this checkout (``PYTHONPATH``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.docs.doc_blocks import walkthrough_files, write_files

EXAMPLE = REPO_ROOT / "plugins" / "seebench-example"


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)  # type: ignore[call-overload]


def build_wheel(project: Path, out: Path) -> Path:
    """``pip wheel`` of ``project`` (the build backend from this environment, offline)."""
    pytest.importorskip("hatchling", reason="building a plugin wheel needs hatchling")
    done = _run(
        [sys.executable, "-m", "pip", "wheel", str(project), "--no-deps"]
        + ["--no-build-isolation", "--no-index", "-q", "-w", str(out)]
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("*.whl")
    return wheel


class FreshVenv:
    """A new virtual environment that sees seebench's dependencies but not this one's plugins."""

    def __init__(self, root: Path) -> None:
        import venv

        try:
            venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(root)
        except Exception as exc:  # no venv support (ensurepip-less distro python and such)
            pytest.skip(f"cannot create a virtual environment: {exc}")
        bin_dir = "Scripts" if os.name == "nt" else "bin"
        self.python = root / bin_dir / ("python.exe" if os.name == "nt" else "python")
        site = _run(
            [str(self.python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
        )
        self.site = Path(site.stdout.strip())
        ours = sysconfig.get_path("purelib")
        (self.site / "_seebench_deps.pth").write_text(ours + "\n")  # plain path: no nested .pth
        self.home = root / "home"

    def install(self, wheel: Path) -> None:
        done = _run(
            [str(self.python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)]
        )
        if done.returncode != 0 and "No module named pip" in done.stderr:
            pytest.skip("pip is not installed next to seebench")
        assert done.returncode == 0, done.stderr

    def seebench(self, dist: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        """``seebench ARGS`` in the venv with only ``dist``'s plugins loaded."""
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO_ROOT),
            "SEEBENCH_HOME": str(self.home),
            "SEEBENCH_LOAD_PLUGINS": dist,
        }
        env.pop("SEEBENCH_PLUGINS", None)
        code = "from seebench.cli.main import main; main()"
        return _run([str(self.python), "-c", code, *args], cwd=cwd, env=env)


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> FreshVenv:
    return FreshVenv(tmp_path_factory.mktemp("venv") / "env")


def _check_installed(
    venv: FreshVenv, wheel: Path, dist: str, task: str, method: str, tmp_path: Path
) -> None:
    venv.install(wheel)
    listed = venv.seebench(dist, "tasks", "list", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)}
    assert rows[task]["status"] == "ok"
    assert Path(rows[task]["path"]).is_relative_to(venv.site), "not the installed copy"
    done = venv.seebench(
        dist, "eval", "--model", "majority", "--method", method, "--tasks", task,
        "--output", "results", "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads((tmp_path / "results" / "majority" / method / f"{task}.json").read_text())
    assert result["status"] == "ok", result.get("reason")
    checked = venv.seebench(dist, "plugins", "check", dist, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip().splitlines()[-1].startswith(f"{dist}: passed")


def test_the_docs_plugin_wheel_carries_everything(venv: FreshVenv, tmp_path: Path) -> None:
    project = write_files(walkthrough_files(), tmp_path / "project")
    wheel = build_wheel(project, tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in walkthrough_files():
        if name != "pyproject.toml":
            assert name in names, f"the wheel lacks {name}"
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    _check_installed(venv, wheel, "seebench-severity", "severity_both", "harm-words", run_dir)


def test_the_example_plugin_wheel_carries_everything(venv: FreshVenv, tmp_path: Path) -> None:
    wheel = build_wheel(EXAMPLE, tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = [p for p in (EXAMPLE / "seebench_example").rglob("*") if p.is_file()]
    for path in shipped:
        if "__pycache__" not in path.parts:
            assert path.relative_to(EXAMPLE).as_posix() in names
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    _check_installed(venv, wheel, "seebench-example", "commit_intent", "keyword", run_dir)
