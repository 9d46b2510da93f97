"""Where seebench keeps its caches and results: ``$SEEBENCH_HOME`` or the user cache folder.

A base module (it imports nothing of seebench), so every layer may ask for the home.
"""

from __future__ import annotations

import os
from pathlib import Path

HOME_ENV = "SEEBENCH_HOME"


def seebench_home() -> Path:
    """The root of seebench's caches: ``$SEEBENCH_HOME`` or the user cache directory."""
    configured = os.environ.get(HOME_ENV)
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("seebench"))
