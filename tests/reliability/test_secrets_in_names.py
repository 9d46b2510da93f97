"""Secrets in derived names (class 7): a model spec with a URL password never yields a model id
(results folder, result file, console table) or an error message that keeps the password."""

from __future__ import annotations

import pytest

from seebench.models import ModelRef, _without_credentials, resolve_model, safe_id
from seebench.results.io import result_paths
from seebench.secrets import forget_registered_secrets, scrub, url_credentials

SPECS = {
    "user_password": ("openai:http://user:PASSWORD123@host/v1", "PASSWORD123"),
    "token_only": ("openai:https://tok3n-abcdef@api.example.org/v1", "tok3n-abcdef"),
    "with_port": ("openai:http://admin:s3cr3t-pw@10.0.0.1:8000/v1", "s3cr3t-pw"),
    "odd_characters": ("openai:http://u:pa_ss.word%21@host/v1", "pa_ss.word%21"),
}


@pytest.fixture(autouse=True)
def _forget():
    yield
    forget_registered_secrets()


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_derived_id_and_folder_never_hold_the_password(tmp_path, name):
    spec, password = SPECS[name]
    ref, _ = resolve_model(spec)
    assert password.split("%")[0] not in ref.id
    result, samples = result_paths(tmp_path, ref.id, "prompting", "task")
    assert password not in str(result) and password not in str(samples)
    # every later scrub (results, samples, caches) removes it, wherever it appears
    assert password not in str(scrub({"model": ref.summary(), "note": f"x {password} y"}))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_safe_id_scrubs_before_deriving(name):
    spec, password = SPECS[name]
    assert password.split("%")[0] not in safe_id(spec)


def test_an_id_a_plugin_derived_from_the_raw_spec_is_replaced():
    spec = "openai:http://user:PASSWORD123@host/v1"
    leaky = ModelRef(spec, "openai-user-PASSWORD123-host", "openai", {"model": spec})
    clean = _without_credentials(leaky, url_credentials(spec))
    assert "PASSWORD123" not in clean.id and clean.spec == spec  # the spec still connects


def test_a_resolver_error_does_not_quote_the_password():
    from seebench.errors import ModelError

    with pytest.raises(ModelError) as error:
        resolve_model("hf:http://user:PASSWORD123@host/nothing-here")
    assert "PASSWORD123" not in str(error.value)


def test_url_credentials_finds_each_part():
    assert url_credentials("x http://u:pw@h y https://tok@h2") == ["u:pw", "tok", "pw", "u"]
