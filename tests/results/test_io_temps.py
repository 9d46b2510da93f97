"""Temporary files left by a write killed between create and rename are removed."""

from __future__ import annotations

from seebench.results.io import atomic_write_text, remove_stale_temps


def test_stale_temporaries_of_one_file_are_removed_and_others_kept(tmp_path):
    target = tmp_path / "task[1].json"
    atomic_write_text(target, "{}\n")
    (tmp_path / ".task[1].json.ab12cd.tmp").write_text("half a result")
    (tmp_path / ".task[1].json.ef34gh.tmp").write_text("another")
    other = tmp_path / ".task2.json.ij56kl.tmp"
    other.write_text("not ours")
    assert remove_stale_temps(target) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [".task2.json.ij56kl.tmp", "task[1].json"]
