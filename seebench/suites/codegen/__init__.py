"""Code generation judged by running tests in the sandbox (the ``codegen`` suite: HumanEval).

Registered by the built-in plugin :mod:`seebench.suites.codegen.plugin`: the ``code`` task type, the
``python_tests`` scorer, the ``pass_rate`` metric, the ``code_target`` preparation step, the
``reference`` model and method, and the task directory ``task_configs/codegen``.
See ``docs/tasks/codegen.md``.
"""
