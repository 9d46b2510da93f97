"""The ``seebench`` command-line interface."""
