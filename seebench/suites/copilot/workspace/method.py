"""The ``retrieval`` method and the ``bm25`` model: the workspace scenario's baselines.

``seebench eval --model bm25 --tasks copilot_repo_workspace`` ranks each repository's chunks
with BM25; ``--model minilm --method retrieval`` ranks them by MiniLM embedding similarity.
Neither writes an answer: the keywords are looked for in the text of the top
``answer_snippets`` snippets, i.e. what an answering model would be shown (a retrieval-side
ceiling of keyword detection, not a model's answer).
"""

from __future__ import annotations

from typing import Any

from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef
from seebench.tasks.spec import TaskSpec

OPTIONS: dict[str, Any] = {
    "top_k": {"type": "integer", "minimum": 1, "description": "snippets ranked per query"},
    "answer_snippets": {
        "type": "integer",
        "minimum": 0,
        "description": "top snippets whose text stands for the answer (keyword detection)",
    },
}


def resolve_bm25(spec: str) -> ModelRef:
    """``bm25``: Okapi BM25 over code tokens (the ``bm25s`` library), not a language model."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        library = f"bm25s {version('bm25s')}"
    except PackageNotFoundError:
        library = "bm25s (not installed)"
    return ModelRef(spec=spec, id=spec, kind="retriever", identity={"library": library})


def retriever_for(model: ModelRef) -> str | None:
    """The retriever a model stands for (``bm25``, ``embedding``), or None."""
    if model.spec == "bm25":  # the retriever this plugin registers by that name
        return "bm25"
    if model.spec == "minilm":
        return "embedding"
    return None


class RetrievalMethod:
    """Rank each query's repository chunks with BM25 or MiniLM embeddings."""

    name = "retrieval"

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        from seebench.suites.copilot.workspace.types import WorkspaceType

        if not isinstance(task.behaviour, WorkspaceType):
            return f"task {task.name!r} is not a workspace task"
        if retriever_for(model) is None:
            return f"the retrieval method runs the bm25 and minilm models, not {model.spec!r}"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        from seebench.suites.copilot.workspace.retrieval import repository_index

        retriever = retriever_for(context.model)
        assert retriever is not None
        top_k = int(context.options.get("top_k", 10))
        shown = int(context.options.get("answer_snippets", 3))
        predictions = []
        for sample in context.data.test:
            if sample.target.get("excluded"):
                predictions.append(Prediction(sample.id, None, error="query excluded"))
            else:
                index = repository_index(sample.meta["tree"], sample.meta["slug"])
                chosen = [index.chunks[i] for i in index.rank(sample.meta["query"], retriever)]
                snippets = [
                    {"file": c.file, "start": c.start, "end": c.end, "symbol": c.symbol}
                    for c in chosen[:top_k]
                ]
                answer = "\n\n".join(c.text for c in chosen[:shown])
                predictions.append(Prediction(sample.id, {"snippets": snippets, "answer": answer}))
            context.advance(1)
        summary = f"{retriever} top {top_k}; keywords looked for in the top {shown} snippets"
        return MethodOutput(predictions, {"summary": summary, "retriever": retriever})
