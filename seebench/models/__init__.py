"""Model references: what a ``--model`` spec resolves to."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from seebench.errors import ModelError


@dataclass(frozen=True)
class ModelRef:
    """A resolved model spec.

    ``id`` is filesystem-safe and names the results folder; ``identity`` (path, revision,
    checksum...) goes into every result and cache key, so two different models never share
    either.
    """

    spec: str
    id: str
    kind: str
    identity: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return {"spec": self.spec, "id": self.id, "kind": self.kind, "identity": self.identity}


def safe_id(spec: str) -> str:
    """A filesystem-safe identifier for a model spec (``hf:org/name`` -> ``hf-org--name``)."""
    from seebench.secrets import scrub

    text = scrub(spec).strip().replace("/", "--").replace(":", "-")  # scrubbed first
    text = re.sub(r"[^A-Za-z0-9._\-]+", "_", text).strip("._")
    if not text:
        raise ModelError(f"invalid model spec {spec!r}")
    return text


def resolve_model(spec: str, registry: Any | None = None) -> tuple[ModelRef, str]:
    """Resolve ``spec`` through the registry; returns the reference and its default method."""
    if registry is None:
        from seebench.plugin_manager import get_registry

        registry = get_registry()
    from seebench.secrets import register_secret, scrub, url_credentials

    credentials = url_credentials(spec)
    for credential in credentials:  # every later scrub (results, caches, logs) removes them
        register_secret(credential)
    entry = registry.model_entry(spec)
    resolver = entry.load()
    try:
        ref = resolver(spec)
    except ModelError as exc:
        raise ModelError(scrub(str(exc), credentials)) from None
    except Exception as exc:
        raise ModelError(
            scrub(f"cannot resolve model {spec!r}: {type(exc).__name__}: {exc}", credentials)
        ) from None
    if not isinstance(ref, ModelRef):
        raise ModelError(
            f"plugin {entry.plugin!r}: resolver for {scrub(spec)!r} did not return a ModelRef"
        )
    return _without_credentials(ref, credentials), entry.default_method


def backend_entry(model: ModelRef, registry: Any | None = None) -> Any | None:
    """The registered backend of ``model``'s kind (a
    :class:`~seebench.registry_entries.BackendEntry`), or ``None`` when no plugin registered
    that kind. The one place that reads ``model.kind``: everything else asks the entry."""
    if registry is None:
        from seebench.plugin_manager import get_registry

        registry = get_registry()
    return registry.backends.get(model.kind)


def backend_placement(model: ModelRef, registry: Any | None = None) -> str | None:
    """Where ``model`` runs, as its backend registered: ``remote``, ``local`` or ``none``
    (``None`` for an unregistered kind)."""
    entry = backend_entry(model, registry)
    return entry.placement if entry is not None else None


def chat_problem(model: ModelRef, registry: Any | None = None, verb: str = "chat") -> str | None:
    """Why ``model`` cannot answer chat prompts (one line: it "cannot ``verb``"), or ``None``
    when its backend chats."""
    entry = backend_entry(model, registry)
    if entry is not None and entry.chats:
        return None
    if registry is None:
        from seebench.plugin_manager import get_registry

        registry = get_registry()
    chatting = sorted(name for name, e in registry.backends.items() if e.chats)
    return (
        f"model {model.spec!r} ({model.kind}) cannot {verb}; use a model of a chat backend "
        f"({', '.join(chatting)}), e.g. smollm2, hf:PATH or openai:NAME"
    )


def chat_backend(model: ModelRef, registry: Any | None = None) -> Any:
    """The registered chat backend of ``model``; one line (:class:`ModelError`) if it has none."""
    problem = chat_problem(model, registry)
    if problem is not None:
        raise ModelError(problem)
    return backend_entry(model, registry)


def _without_credentials(ref: ModelRef, credentials: list[str]) -> ModelRef:
    """``ref`` with an id derived from the scrubbed spec when the resolver's id kept any part
    of a URL's user info (the id names folders and shows in tables)."""
    from seebench.secrets import scrub

    leaked = any(
        variant in ref.id
        for credential in credentials
        for variant in (credential, re.sub(r"[^A-Za-z0-9._\-]+", "_", credential))
        if len(variant) >= 3
    )
    if not leaked:
        return ref
    clean = safe_id(scrub(ref.spec, credentials))
    return ModelRef(ref.spec, clean, ref.kind, ref.identity, ref.options)
