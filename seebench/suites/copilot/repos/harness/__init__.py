"""Files copied into the sandbox next to a repository's tree to run its test suite: they are
run by the repository environment's own interpreter or Node, never imported by seebench."""
