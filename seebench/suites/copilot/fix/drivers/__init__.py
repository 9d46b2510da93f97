"""Scripts run inside the sandbox to drive an analyzer over many files, each file alone."""
