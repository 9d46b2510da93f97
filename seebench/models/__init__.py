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
    text = spec.strip().replace("/", "--").replace(":", "-")
    text = re.sub(r"[^A-Za-z0-9._\-]+", "_", text).strip("._")
    if not text:
        raise ModelError(f"invalid model spec {spec!r}")
    return text


def resolve_model(spec: str, registry: Any | None = None) -> tuple[ModelRef, str]:
    """Resolve ``spec`` through the registry; returns the reference and its default method."""
    if registry is None:
        from seebench.plugin_manager import get_registry

        registry = get_registry()
    entry = registry.model_entry(spec)
    resolver = entry.load()
    try:
        ref = resolver(spec)
    except ModelError:
        raise
    except Exception as exc:
        raise ModelError(f"cannot resolve model {spec!r}: {type(exc).__name__}: {exc}") from None
    if not isinstance(ref, ModelRef):
        raise ModelError(
            f"plugin {entry.plugin!r}: resolver for {spec!r} did not return a ModelRef"
        )
    return ref, entry.default_method
