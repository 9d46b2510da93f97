"""The study suite: a self-hosted web app for human studies of coding assistants
(RealHumanEval style): a study definition in YAML, the participant app with inline
suggestions or chat, sandboxed Run/Submit, and lossless telemetry in SQLite.

See ``docs/study.md``.
"""
