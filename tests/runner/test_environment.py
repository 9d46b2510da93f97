"""What a result records about its software and hardware (seebench.runner.environment)."""

from __future__ import annotations

from seebench.runner import environment as env


def test_hardware_records_threads_and_cpus(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    record = env.hardware()
    assert record["thread_variables"]["OMP_NUM_THREADS"] == "3"
    assert "MKL_NUM_THREADS" not in record["thread_variables"]
    assert record["cpus_usable"] >= 1
    assert isinstance(record["blas"], list)


def test_environment_carries_hardware_and_packages():
    env.environment.cache_clear()
    record = env.environment()
    assert record["packages"]["seebench"]
    assert set(record["hardware"]) >= {"cpu", "cpu_count", "cpus_usable", "blas"}


def test_source_commit_is_none_outside_a_checkout(monkeypatch, tmp_path):
    fake = tmp_path / "pkg" / "seebench" / "runner" / "environment.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("")
    monkeypatch.setattr(env, "__file__", str(fake))
    assert env.source_commit() is None


def test_blas_libraries_are_listed_in_a_fixed_order(monkeypatch):
    import threadpoolctl

    libraries = [
        {"user_api": "openmp", "internal_api": "openmp", "version": None, "num_threads": 1},
        {"user_api": "blas", "internal_api": "openblas", "version": "0.3.31", "num_threads": 1},
        {"user_api": "blas", "internal_api": "openblas", "version": "0.3.30", "num_threads": 1},
    ]
    seen = []
    for order in (libraries, list(reversed(libraries))):
        monkeypatch.setattr(threadpoolctl, "threadpool_info", lambda order=order: order)
        seen.append(env._blas())
    assert seen[0] == seen[1]
    assert [lib["version"] for lib in seen[0]] == ["0.3.30", "0.3.31", None]
