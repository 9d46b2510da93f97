"""seebench's built-in plugins, registered exactly like third-party ones."""
