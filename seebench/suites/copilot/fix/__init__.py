"""The Copilot **fix** scenario: the model fixes a static analyzer's warning in a whole file;
the analyzer, run in the sandbox on the edited file exactly as on the original, decides.

See ``docs/tasks/copilot/fix.md``.
"""
