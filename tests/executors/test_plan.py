"""Sweep planning: model lists, unit order, shards across the sweep, declared resources."""

from __future__ import annotations

import pytest

from seebench.errors import SeebenchError
from seebench.executors.plan import Resources, parse_models


def test_parse_models_joins_the_option_and_the_file(tmp_path):
    listing = tmp_path / "models.txt"
    listing.write_text("# baselines\nmajority\n\nrandom  # a comment\nmajority\n")
    assert parse_models("tfidf-xgboost,majority", listing) == [
        "tfidf-xgboost",
        "majority",
        "random",
    ]


def test_parse_models_errors_name_file_and_line(tmp_path):
    listing = tmp_path / "models.txt"
    listing.write_text("majority\nhf:a b\n")
    with pytest.raises(SeebenchError, match=r"models.txt: line 2: 'hf:a b' is not one model spec"):
        parse_models(None, listing)
    with pytest.raises(SeebenchError, match="cannot read"):
        parse_models(None, tmp_path / "missing.txt")
    with pytest.raises(SeebenchError, match="no model"):
        parse_models(" , ", None)


def test_units_are_model_major_and_shards_split_the_whole_sweep(sweep_env):
    models = ["xecho:plain-a", "xecho:sandbox-b"]
    units, runners = sweep_env.plan(models)
    assert [u.key for u in units] == [
        f"{m}/resource-echo/{t}"
        for m in ("xecho-plain-a", "xecho-sandbox-b")
        for t in ("alpha", "beta", "gamma")
    ]
    assert set(runners) == set(models)
    assert units[0].resources == Resources(cpu=1)
    assert units[3].resources.sandbox == 1
    shards = [sweep_env.plan(models, shard=(i, 4))[0] for i in (1, 2, 3, 4)]
    assert sorted(u.key for s in shards for u in s) == sorted(u.key for u in units)
    assert [u.key for u in shards[1]] == [units[1].key, units[5].key]


def test_two_specs_of_one_unit_are_refused(sweep_env):
    with pytest.raises(SeebenchError, match="name the same unit"):
        sweep_env.plan(["xecho:plain_a", "xecho:plain a"])


def test_default_resources_follow_model_and_task(sweep_env):
    from seebench.executors.plan import unit_resources
    from seebench.models import ModelRef

    class FakeRunner:
        method = object()
        method_name = "zero-shot"

        def __init__(self, kind, device=None):
            from seebench.plugin_manager import get_registry
            from seebench.runner.config import EvalConfig

            self.model = ModelRef(
                spec="m", id="m", kind=kind, options={"device": device} if device else {}
            )
            self.registry = get_registry()
            self.config = EvalConfig(model="m", tasks="x")

    from seebench.plugin_manager import get_task_index

    task = get_task_index().get("alpha")
    assert unit_resources(FakeRunner("hf", "cuda"), task) == Resources(gpu=1)
    assert unit_resources(FakeRunner("hf"), task).gpu_if_available
    assert unit_resources(FakeRunner("hf", "cpu"), task) == Resources()
    assert unit_resources(FakeRunner("openai"), task).cpu < 1
