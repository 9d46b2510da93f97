"""What a Python environment installs, read from the repository's manifests."""

from __future__ import annotations

from seebench.suites.copilot.repos.python_env import (
    _clean_requirements,
    extra_requirements,
    has_manifest,
    manifest_files,
    package_roots,
    requirement_files,
)


def test_test_requirements_come_from_tox_dependency_groups_and_poetry(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[dependency-groups]\ntest = ["pytest-mock>=3"]\ndocs = ["sphinx"]\n\n'
        '[tool.poetry.group.dev.dependencies]\npython = "^3.8"\nfreezegun = "^1.2"\n'
    )
    (tmp_path / "tox.ini").write_text(
        "[testenv]\ndeps =\n    responses\n    -r{toxinidir}/requirements-dev.txt\n"
        "    py38: mock\n    {[base]deps}\n    .[test]\n"
    )
    assert extra_requirements(tmp_path) == ["pytest-mock>=3", "freezegun", "responses"]


def test_requirement_files_leave_docs_out_and_clean_the_project_and_vcs_lines(tmp_path):
    for name in ("requirements.txt", "requirements-dev.txt", "docs-requirements.txt"):
        (tmp_path / name).write_text("six\n")
    (tmp_path / "requirements").mkdir()
    (tmp_path / "requirements" / "test.txt").write_text(
        "-e .\n.[tests]\nattrs>=20\n-e git+https://github.com/a/b.git#egg=b\n"
    )
    names = [p.relative_to(tmp_path).as_posix() for p in requirement_files(tmp_path)]
    assert names == ["requirements/test.txt", "requirements-dev.txt", "requirements.txt"]
    dropped = _clean_requirements(tmp_path / "requirements" / "test.txt")
    assert (tmp_path / "requirements" / "test.txt").read_text() == "attrs>=20\n"
    assert dropped == ["-e git+https://github.com/a/b.git#egg=b"]
    assert has_manifest(tmp_path) and len(manifest_files(tmp_path)) == 3


def test_package_roots_follow_where_the_top_level_packages_live(tmp_path):
    (tmp_path / "lib" / "yaml").mkdir(parents=True)
    (tmp_path / "lib" / "yaml" / "__init__.py").write_text("")
    (tmp_path / "tool.py").write_text("")
    assert package_roots(tmp_path, ["yaml", "tool"]) == ["lib", ""]
    (tmp_path / "src").mkdir()
    assert package_roots(tmp_path, []) == ["", "src"]
