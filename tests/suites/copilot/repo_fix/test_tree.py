"""Which files an analyzer sees in a repository, and the repository with one file edited."""

from __future__ import annotations

from seebench.suites.copilot.repo_fix.tree import analyzed_files, tree_key, with_edit


def test_an_analyzer_reads_its_language_outside_dependency_folders(tmp_path):
    for name, text in {
        "pkg/__init__.py": "",
        "pkg/core.py": "x = 1\n",
        "pkg/core.pyi": "x: int\n",
        "node_modules/dep/index.js": "module.exports = 1;\n",
        "lib/app.js": "export const a = 1;\n",
        "dist/app.min.js": "var a=1;\n",
        ".git/hooks/pre.py": "print()\n",
        "docs/readme.md": "# hi\n",
    }.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "bad.py").write_bytes(b"\xff\xfe not utf-8")
    assert list(analyzed_files(tmp_path, "pylint")) == ["pkg/__init__.py", "pkg/core.py"]
    assert list(analyzed_files(tmp_path, "pyright")) == [
        "pkg/__init__.py",
        "pkg/core.py",
        "pkg/core.pyi",
    ]
    assert list(analyzed_files(tmp_path, "eslint")) == ["lib/app.js"]
    assert analyzed_files(tmp_path, "tsc") == {}


def test_an_edit_replaces_or_adds_a_file_and_changes_the_key():
    files = {"a.py": "x = 1\n", "b.py": "y = 2\n"}
    edited = with_edit(files, "a.py", "x = 3\n")
    assert edited == {"a.py": "x = 3\n", "b.py": "y = 2\n"} and files["a.py"] == "x = 1\n"
    assert list(with_edit(files, "0.py", "")) == ["0.py", "a.py", "b.py"]
    assert tree_key(files) == tree_key(dict(reversed(files.items())))
    assert tree_key(files) != tree_key(edited)
    # the path is part of the key, not only the contents
    assert tree_key({"a.py": "x"}) != tree_key({"c.py": "x"})
