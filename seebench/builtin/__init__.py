"""seebench's built-in plugins used to live here; each now lives in its own folder (see
``BUILTIN_MODULES`` in :mod:`seebench.plugin_manager`). Only the study app remains, on its
way to its own distribution."""
