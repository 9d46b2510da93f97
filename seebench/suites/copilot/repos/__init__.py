"""Repository environments of the Copilot suite's repository-level scenarios.

The repositories of the public fix and test cases are staged as ``git archive`` tars at the
cases' commits (a file-set list, ``task_configs/copilot_repo/data/copilot_repos.sha256``, with a small table
of facts beside it, ``copilot_repos.tsv``). :mod:`.staging` lists and extracts them; the
environment builds, test-suite runs and per-test coverage build on that.
"""
