"""A rule-based method: keywords per label, declared in the task's ``methods.keyword`` block."""

from __future__ import annotations

import re

from seebench.api import MethodOutput, ModelRef, Prediction, RunContext, TaskSpec


class KeywordMethod:
    """Predicts the label whose keywords match most words of the input (ties: first label)."""

    name = "keyword"

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        if not task.method_options("keyword").get("keywords"):
            return f"task {task.name!r} declares no methods.keyword.keywords"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        keywords = context.options["keywords"]
        predictions = []
        for sample in context.data.test:
            words = re.findall(r"[a-z]+", str(sample.input).lower())
            scores = {label: sum(w in kws for w in words) for label, kws in keywords.items()}
            best = max(scores, key=lambda label: scores[label])
            predictions.append(
                Prediction(
                    sample.id,
                    best if scores[best] else None,
                    error=None if scores[best] else "no keyword matched",
                )
            )
            context.advance(1)
        return MethodOutput(predictions, {"keywords": len(keywords)})
