"""The response cache: keyed by model identity and the full request; safe to resume from."""

from __future__ import annotations

from seebench.models.cache import ResponseCache, cache_key, responses_dir

MODEL = {"path": "/models/a", "fingerprint": "f00d"}
BACKEND = {"backend": "hf", "dtype": "float32"}
MESSAGES = [{"role": "user", "content": "Is this a bug?"}]
PARAMS = {"max_new_tokens": 8, "temperature": 0.0}


def test_key_changes_with_model_backend_messages_and_every_parameter():
    base = cache_key(MODEL, BACKEND, MESSAGES, PARAMS)
    assert base == cache_key(dict(MODEL), dict(BACKEND), list(MESSAGES), dict(PARAMS))
    variants = [
        cache_key({**MODEL, "fingerprint": "beef"}, BACKEND, MESSAGES, PARAMS),
        cache_key(MODEL, {**BACKEND, "base_url": "http://other"}, MESSAGES, PARAMS),
        cache_key(MODEL, BACKEND, [{"role": "user", "content": "Is this a bug? "}], PARAMS),
        cache_key(MODEL, BACKEND, MESSAGES, {**PARAMS, "temperature": 0.7}),
        cache_key(MODEL, BACKEND, MESSAGES, {**PARAMS, "max_new_tokens": 9}),
    ]
    assert base not in variants and len(set(variants)) == len(variants)


def test_put_then_get_counts_hits_and_misses(isolated_home):
    cache = ResponseCache()
    key = cache_key(MODEL, BACKEND, MESSAGES, PARAMS)
    assert cache.get(key) is None
    cache.put(key, {"text": "yes", "confidence": 0.9})
    assert ResponseCache().get(key) == {"text": "yes", "confidence": 0.9}  # a later run sees it
    assert cache.get(key)["text"] == "yes"
    assert (cache.hits, cache.misses) == (1, 1)
    assert cache.path(key).is_relative_to(isolated_home / "cache") and cache.root == responses_dir()
    assert not [
        p for p in cache.path(key).parent.iterdir() if p.name.startswith(".")
    ]  # no temp files


def test_unreadable_entries_are_misses_and_a_disabled_cache_stores_nothing(tmp_path):
    cache = ResponseCache(tmp_path)
    key = cache_key(MODEL, BACKEND, MESSAGES, PARAMS)
    cache.path(key).parent.mkdir(parents=True)
    cache.path(key).write_text('{"text": "ye')  # e.g. a file from a crashed writer
    assert cache.get(key) is None
    disabled = ResponseCache(tmp_path / "off", enabled=False)
    disabled.put(key, {"text": "yes"})
    assert disabled.get(key) is None and not (tmp_path / "off").exists()
