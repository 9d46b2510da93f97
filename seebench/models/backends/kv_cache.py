"""The key/value cache's name in transformers' calls, old and new.

transformers 5.24 renamed the causal LMs' ``past_key_values`` argument and output to ``cache``
(the old name still works, with a deprecation warning, until 5.40). seebench passes and reads
whichever name the installed model takes, so neither version warns nor breaks.
"""

from __future__ import annotations

import inspect
from typing import Any

NEW_NAME = "cache"
OLD_NAME = "past_key_values"


def cache_keyword(callable_: Any) -> str:
    """The keyword ``callable_`` (a model's ``forward`` or ``generate``) takes for the cache."""
    try:
        parameters = inspect.signature(callable_).parameters
    except (TypeError, ValueError):
        return OLD_NAME
    return NEW_NAME if NEW_NAME in parameters else OLD_NAME


def cache_argument(model: Any, cache: Any) -> dict[str, Any]:
    """``{name: cache}`` for ``model.forward`` or ``model.generate`` (which takes ``**kwargs``
    and forwards them), under the name the model's forward takes."""
    return {cache_keyword(model.forward): cache}


def cache_of(output: Any) -> Any:
    """The key/value cache a model's forward returned, under either name."""
    if NEW_NAME in getattr(type(output), "__dataclass_fields__", {}):
        return getattr(output, NEW_NAME)
    return getattr(output, OLD_NAME)
