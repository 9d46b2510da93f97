"""The Copilot scenarios (Agarwal, Chan et al., "Copilot Evaluation Harness"): doc, fix,
generate and test, each judged by parsers, analyzers or tests run in the sandbox.

Registered by the built-in plugin :mod:`seebench.suites.copilot.plugin`. Each scenario lives in its
own subpackage (``doc``, ``fix``, ``generate``, ``testgen``) with a ``registration`` module
whose functions have the names of the hooks they feed; shared pieces are :mod:`.languages`
(tree-sitter parsers per language) and :mod:`.scenario` (the base task type and the ``null`` /
``oracle`` reference answers). See ``docs/tasks/copilot.md``.
"""
