"""Secrets that must never be written anywhere, and :func:`scrub` to remove them.

A secret is either *configured* (the value of an environment variable that holds a key or a
token, or a value registered with :func:`register_secret`, e.g. the key named by a model's
``api_key_env`` option) or a *URL credential* (``scheme://user:password@host``). Every writer
of results, samples, caches and logs passes what it writes through :func:`scrub`::

    from seebench.secrets import register_secret, scrub

    register_secret(os.environ[api_key_env])   # a key read from a variable with any name
    cache.put(key, scrub(entry))               # str, dict, list: scrubbed copy, same shape

Values shorter than :data:`MIN_SECRET_LENGTH` characters are not treated as secrets: replacing
every ``"1"`` in a results file would destroy it and protect nothing.
"""

from __future__ import annotations

import os
import re
import threading
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

REDACTED = "***"
MIN_SECRET_LENGTH = 8

#: Environment variables whose values are always secrets (when set).
SECRET_ENV_VARS = ("OPENAI_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "ANTHROPIC_API_KEY")
#: Any variable whose name ends with one of these holds a secret too.
SECRET_ENV_SUFFIXES = ("_API_KEY", "_APIKEY", "_TOKEN", "_SECRET", "_PASSWORD", "_ACCESS_KEY")

# scheme://user:password@  or  scheme://token@  (user info of any kind is dropped)
_URL_USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?P<userinfo>[^\s/@'\"<>]+)@")

_registered: set[str] = set()
_lock = threading.Lock()

T = TypeVar("T")


def register_secret(value: str | None) -> None:
    """Treat ``value`` as a secret in every later :func:`scrub` of this process."""
    if value and len(value) >= MIN_SECRET_LENGTH:
        with _lock:
            _registered.add(value)


def forget_registered_secrets() -> None:
    """Forget every value given to :func:`register_secret` (tests; a new evaluation session)."""
    with _lock:
        _registered.clear()


def configured_secrets(environ: dict[str, str] | None = None) -> list[str]:
    """Secret values known now: registered ones and those in secret-looking env variables.

    Longest first, so that a secret containing another is replaced whole.
    """
    env = os.environ if environ is None else environ
    found = set(_registered)
    for name, value in env.items():
        upper = name.upper()
        secret_name = upper in SECRET_ENV_VARS or upper.endswith(SECRET_ENV_SUFFIXES)
        if secret_name and value and len(value) >= MIN_SECRET_LENGTH:
            found.add(value)
    return sorted(found, key=lambda s: (-len(s), s))


def redact_url(url: str) -> str:
    """``url`` without its user name and password (``http://u:p@h/v1`` -> ``http://h/v1``)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if parts.port:
            host = f"{host}:{parts.port}"
    except ValueError:  # not a URL we can parse: fall back to the pattern
        return _URL_USERINFO.sub(lambda m: m.group("scheme"), url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


def url_credentials(text: str) -> list[str]:
    """The user info of every URL in ``text`` and its parts (``user:pw`` -> ``user:pw``,
    ``user``, ``pw``): what must not survive into anything derived from ``text``."""
    found: list[str] = []
    for match in _URL_USERINFO.finditer(text):
        info = match.group("userinfo")
        found.append(info)
        found.extend(part for part in info.split(":", 1) if part)
    return sorted(set(found), key=lambda s: (-len(s), s))


def _scrub_text(text: str, secrets: list[str]) -> str:
    if "://" in text and "@" in text:
        text = _URL_USERINFO.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", text)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def scrub(value: T, secrets: list[str] | None = None) -> T:
    """A copy of ``value`` (a string, or JSON-like dicts and lists) with every configured
    secret replaced by ``***`` and every URL's user info replaced by ``***``.

    Other types (numbers, ``None``) are returned unchanged. ``secrets`` defaults to
    :func:`configured_secrets`.
    """
    known = configured_secrets() if secrets is None else secrets
    return _scrub_value(value, known)


def _scrub_value(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        return _scrub_text(value, secrets)
    if isinstance(value, dict):
        return {_scrub_value(k, secrets): _scrub_value(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub_value(v, secrets) for v in value]
    return value
