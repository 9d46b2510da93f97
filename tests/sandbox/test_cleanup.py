"""The worker's clean-up of its scratch dirs never walks a read-only bind (issue 29: a venv
under ``/tmp`` made every run walk it) nor follows a link out of the scratch dir."""

from __future__ import annotations

import os

from seebench.sandbox import Limits, PythonProgram, SandboxRequest
from seebench.sandbox.zygote import _empty_directory, _kept_paths


def _tree(root, names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")


def test_binds_and_the_folders_above_them_are_kept_everything_else_goes(tmp_path):
    scratch = tmp_path / "tmp"
    mount = scratch / "ci" / "clone" / ".venv"
    _tree(scratch, ["ci/clone/.venv/lib/a.py", "ci/clone/.venv/bin/python", "ci/junk.txt"])
    _tree(scratch, ["ci/clone/left.txt", "other/deep/file.txt", "top.txt"])
    _empty_directory(str(scratch), _kept_paths([str(mount)]), frozenset({str(mount)}))
    left = sorted(str(p.relative_to(scratch)) for p in scratch.rglob("*"))
    assert left == [
        "ci",
        "ci/clone",
        "ci/clone/.venv",
        "ci/clone/.venv/bin",
        "ci/clone/.venv/bin/python",
        "ci/clone/.venv/lib",
        "ci/clone/.venv/lib/a.py",
    ]


def test_several_binds_under_one_folder(tmp_path):
    scratch = tmp_path / "tmp"
    mounts = [str(scratch / "a" / "one"), str(scratch / "a" / "two")]
    _tree(scratch, ["a/one/f", "a/two/g", "a/three/h", "a/i"])
    _empty_directory(str(scratch), _kept_paths(mounts), frozenset(mounts))
    assert sorted(p.name for p in (scratch / "a").iterdir()) == ["one", "two"]
    assert (scratch / "a" / "one" / "f").exists() and (scratch / "a" / "two" / "g").exists()


def test_links_are_removed_not_followed(tmp_path):
    scratch, outside = tmp_path / "tmp", tmp_path / "outside"
    _tree(outside, ["keep.txt", "dir/keep.txt"])
    scratch.mkdir()
    os.symlink(outside, scratch / "to-dir")
    os.symlink(outside / "keep.txt", scratch / "to-file")
    _empty_directory(str(scratch))
    assert list(scratch.iterdir()) == []
    assert (outside / "keep.txt").exists() and (outside / "dir" / "keep.txt").exists()


def test_a_missing_scratch_dir_is_fine(tmp_path):
    _empty_directory(str(tmp_path / "absent"))


def test_a_bind_under_tmp_survives_runs_and_tmp_is_still_emptied(tmp_path, request):
    from tests.sandbox.conftest import open_or_skip

    bound = tmp_path / "prefix"  # pytest's tmp_path lies under /tmp, like a CI clone's venv
    _tree(bound, ["lib/module.py"])
    box = open_or_skip(workers=1, extra_mounts=(str(bound),))
    request.addfinalizer(box.close)
    limits = Limits(cpu_s=2, wall_s=10, disk_mb=16)
    write = f"open('/tmp/junk', 'w').write('j')\nassert open({str(bound / 'lib/module.py')!r}).read() == 'x'\n"
    check = f"import os\nassert not os.path.exists('/tmp/junk')\nassert os.path.exists({str(bound)!r})\n"
    for code in (write, check, check):
        result = box.run(SandboxRequest(program=PythonProgram(code), limits=limits))
        assert result.passed, result.stderr
    assert (bound / "lib" / "module.py").read_text() == "x"
