"""The study suite: a self-hosted web app for human studies of coding assistants
(RealHumanEval style): a study definition in YAML, the participant app with inline
suggestions or chat, sandboxed Run/Submit, lossless telemetry in SQLite, and the analysis
(``seebench study export``/``analyze``/``replay``: :mod:`.analysis`).

See ``docs/study.md``.
"""
