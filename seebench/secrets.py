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

Keys that nobody configured are caught by their place and their shape: the value of a URL
query parameter named like a key (``?api_key=...``, ``&token=...``), a header-like value
(``Authorization: Bearer ...``, ``x-api-key: ...``), a mapping entry named like a key
(``api_key``, ``password``, ``client_secret``...), a ``*_env`` entry whose value is not a
variable name, and a string shaped like a well-known provider key (``sk-...``, ``hf_...``,
``ghp_...``, ``AKIA...``). :func:`check_variable_name` refuses a key pasted where the name of a
variable is expected, without echoing it.
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

# provider key shapes: OpenAI/Anthropic, Hugging Face, GitHub, GitLab, Slack, AWS, Google
_KEY_SHAPE = re.compile(
    r"\b(?:sk-[A-Za-z0-9_\-]{16,}|hf_[A-Za-z0-9]{20,}|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|github_pat_[A-Za-z0-9_]{30,}|glpat-[A-Za-z0-9_\-]{20,}|xox[abposr]-[A-Za-z0-9\-]{10,}"
    r"|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_\-]{35})"
)
_SECRET_PARAM = (
    r"(?:api[_\-]?key|apikey|key|token|access[_\-]?token|auth[_\-]?token|auth|secret"
    r"|client[_\-]?secret|password|passwd|pwd|sig|signature|x-api-key)"
)
# ?key=VALUE / &token=VALUE in a URL: the value goes
_QUERY_SECRET = re.compile(rf"(?i)([?&;]{_SECRET_PARAM}=)([^&#\s'\"<>]+)")
# Authorization: Bearer VALUE, x-api-key: VALUE, "api-key": "VALUE"
_HEADER_SECRET = re.compile(
    r"(?i)\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token)(['\"]?\s*[:=]\s*['\"]?)"
    r"(?:(bearer|basic|token)\s+)?([^\s'\",;}]+)"
)
_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=\-]{8,}")
#: Mapping entries whose string value is always a secret (options, headers, run files).
SECRET_KEYS = frozenset(
    {
        "api_key",
        "apikey",
        "api-key",
        "x-api-key",
        "password",
        "passwd",
        "secret",
        "client_secret",
        "access_token",
        "auth_token",
        "authorization",
        "proxy-authorization",
    }
)
_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")

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


def looks_like_key(value: str) -> bool:
    """Whether ``value`` is shaped like an API key rather than a name: a well-known provider
    key, or 24+ characters mixing upper case, lower case and digits without spaces."""
    if _KEY_SHAPE.search(value):
        return True
    return (
        len(value) >= 24
        and not any(c.isspace() for c in value)
        and any(c.islower() for c in value)
        and any(c.isupper() for c in value)
        and any(c.isdigit() for c in value)
    )


def variable_name_problem(value: Any) -> str | None:
    """Why ``value`` is not the name of an environment variable (``None`` when it is one);
    the reason never quotes ``value``."""
    if not isinstance(value, str) or not _VARIABLE_NAME.fullmatch(value):
        return "expected the NAME of an environment variable (letters, digits, _)"
    if looks_like_key(value):
        return "expected the NAME of an environment variable; the value given looks like a key"
    return None


def check_variable_name(option: str, value: Any) -> None:
    """Raise a one-line :class:`~seebench.errors.SeebenchError` unless ``value`` names an
    environment variable. A key pasted there is registered as a secret (every later scrub
    removes it) and never echoed."""
    from seebench.errors import SeebenchError

    problem = variable_name_problem(value)
    if problem is not None:
        if isinstance(value, str):
            register_secret(value)
        raise SeebenchError(
            f"option {option}: {problem} (the value is not shown); put the key in a variable "
            f"and give that variable's name"
        )


def _scrub_text(text: str, secrets: list[str]) -> str:
    if "://" in text and "@" in text:
        text = _URL_USERINFO.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", text)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    if "=" in text and "://" in text:  # a query string of a URL
        text = _QUERY_SECRET.sub(lambda m: f"{m.group(1)}{REDACTED}", text)
    # substring tests first (far cheaper than the patterns, and inline: this runs on every
    # string of every samples file)
    lower = text.lower()
    if "authoriz" in lower or "bearer" in lower or "api-key" in lower or "auth-token" in lower:
        text = _HEADER_SECRET.sub(_header_redacted, text)
        text = _BEARER.sub(lambda m: f"{m.group(1)}{REDACTED}", text)
    if (
        "sk-" in text
        or "hf_" in text
        or "AKIA" in text
        or "AIza" in text
        or "xox" in text
        or "glpat-" in text
        or ("gh" in text and "_" in text)
    ):
        text = _KEY_SHAPE.sub(REDACTED, text)
    return text


def _header_redacted(match: re.Match[str]) -> str:
    scheme = f"{match.group(3)} " if match.group(3) else ""
    return f"{match.group(1)}{match.group(2)}{scheme}{REDACTED}"


def _scrub_entry(key: Any, value: Any, secrets: list[str]) -> Any:
    """The scrubbed value of a mapping entry: by its name first, then by its content."""
    if isinstance(key, str) and isinstance(value, str) and value:
        name = key.lower()
        if name in SECRET_KEYS:
            return REDACTED
        if name.endswith("_env") and variable_name_problem(value) is not None:
            return REDACTED  # a key pasted where a variable name belongs
    return _scrub_value(value, secrets)


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
        return {
            _scrub_value(k, secrets): _scrub_entry(k, v, secrets)
            if type(k) is str and (k.lower() in SECRET_KEYS or k[-4:].lower() == "_env")
            else _scrub_value(v, secrets)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_scrub_value(v, secrets) for v in value]
    return value
