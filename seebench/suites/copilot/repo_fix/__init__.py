"""The Copilot **fix** scenario at repository level: part 1's fix cases whose repository is a
whole tree, judged by the analyzer over the whole repository (the edited file replacing the
original in a private copy) next to part 1's file-alone rule.

See ``docs/tasks/copilot/repo_fix.md``.
"""
