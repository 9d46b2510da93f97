"""A plugin whose import fails (as with a missing dependency): the broken-plugin tests load it
through an entry point and through ``SEEBENCH_PLUGINS``. Never import it directly."""

raise RuntimeError("the plugin's dependency is missing")
