"""What the workspace scenario registers (a sub-plugin of :mod:`seebench.suites.copilot.plugin`)."""

from __future__ import annotations

from seebench.hookspecs import (
    RegisterFunction,
    RegisterMethod,
    RegisterMetric,
    RegisterModel,
    RegisterScorer,
    RegisterTaskType,
    hookimpl,
)

_HERE = "seebench.suites.copilot.workspace"
SCORER = "copilot_workspace"

#: metric name -> what it measures
METRICS = {
    "workspace_mrr": "MRR, exact rule: rank of the first snippet overlapping a gold range",
    "workspace_mrr_jaccard": "MRR, line-Jaccard rule: first snippet whose line set has "
    "Jaccard >= 0.5 with a gold range",
    "workspace_keyword_rate": "share of answers containing every keyword (normalised)",
    "workspace_keyword_recall": "mean share of a query's keywords found in the answer",
    "workspace_ranking_rate": "share of prompted replies that ranked at least one candidate",
    "workspace_candidate_recall": "share of queries with a gold snippet among the candidates",
}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "copilot_workspace",
        f"{_HERE}.types:WorkspaceType",
        description="Answer a question about a repository (Copilot workspace): rank code "
        "snippets (MRR against gold ranges) and answer (keyword detection).",
    )


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    register(
        "copilot_workspace_queries",
        f"{_HERE}.types:read_workspace_queries",
        description="The workspace query set over the staged repositories (a file set of "
        "repository tars); option queries: another query-set file.",
    )


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    register(
        "workspace_candidates",
        f"{_HERE}.types:workspace_candidates",
        description="Rank each query's repository chunks (BM25 + MiniLM, fused) and show the "
        "top k to the model as numbered candidates.",
        schema={
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "k": {"type": "integer", "minimum": 1},
                "max_lines": {"type": "integer", "minimum": 1},
                "retriever": {"enum": ["bm25", "embedding", "hybrid"]},
            },
        },
    )


@hookimpl
def register_scorers(register: RegisterScorer) -> None:
    from seebench.suites.copilot.workspace.options import OPTIONS

    register(
        SCORER,
        f"{_HERE}.scorer:WorkspaceScorer",
        description="Reciprocal rank of the first correct snippet (overlap and line-Jaccard "
        "rules) and the keywords found in the answer.",
        options=OPTIONS,
    )


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    for name, what in METRICS.items():
        register(
            name,
            f"{_HERE}.scorer:{name}",
            inputs="scores",
            scorer=SCORER,
            task_types=("copilot_workspace",),
            description=what[0].upper() + what[1:] + ".",
        )


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    from seebench.suites.copilot.workspace.method import OPTIONS

    register(
        "retrieval",
        f"{_HERE}.method:RetrievalMethod",
        task_types=("copilot_workspace",),
        options=OPTIONS,
        description="Rank repository chunks with the bm25 model or MiniLM embeddings (--model "
        "minilm); the top snippets stand for the answer.",
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "bm25",
        f"{_HERE}.method:resolve_bm25",
        description="Okapi BM25 over code tokens (bm25s), for workspace retrieval (not a "
        "language model).",
        default_method="retrieval",
    )
