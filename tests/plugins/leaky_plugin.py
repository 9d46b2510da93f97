"""A method whose replies echo secrets, to prove that none of them reaches the disk.

``leaky`` answers the gold label with a raw reply that quotes ``$OPENAI_API_KEY``, the key
named by its ``api_key_env`` option (registered as a secret, as a model client does) and its
``base_url`` option; on tasks whose name starts with ``fail`` it raises an error quoting the
key instead.
"""

from __future__ import annotations

import os

from seebench import hookimpl
from seebench.secrets import register_secret


class LeakyMethod:
    name = "leaky"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        from seebench.methods import MethodOutput, Prediction

        key = os.environ.get("OPENAI_API_KEY", "")
        own_key = os.environ.get(context.options.get("api_key_env", ""), "")
        register_secret(own_key)
        reply = f"key={key} own={own_key} url={context.options.get('base_url')}"
        if context.task.name.startswith("fail"):
            raise RuntimeError(f"server said: {reply}")
        predictions = [Prediction(s.id, s.target, raw=reply) for s in context.data.test]
        return MethodOutput(predictions, info={"summary": reply})


@hookimpl
def register_methods(register):
    register("leaky", LeakyMethod, description="Echo secrets in replies (tests).")
