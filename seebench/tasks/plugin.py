"""Built-in task types: binary, multiclass, multilabel, regression, ner, mlm.

This is the only module that knows what these type names mean; everything else asks the
type object (``task.behaviour``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from seebench.hookspecs import RegisterTaskType, hookimpl
from seebench.tasks import types
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import AnswerFormat, ParsedAnswer, TaskType

CLASSIFICATION_METRICS = ("f1_macro", "f1_micro", "accuracy")


def _label_key(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool):
        value = int(value)
    return str(value).strip().lower()


def _label_lookup(task: TaskSpec) -> dict[str, str]:
    lookup: dict[str, str] = {}
    for label in task.labels:
        lookup[_label_key(label.name)] = label.name
        lookup[_label_key(label.raw_value)] = label.name
    return lookup


def _data_error(message: str) -> Exception:
    from seebench.data.dataset import DataError

    return DataError(message)


class LabelType(TaskType):
    """One label per input; stratified splits; exact-match scores."""

    target_kind = types.LABEL
    default_metrics = CLASSIFICATION_METRICS

    def __init__(self, max_new_tokens: int):
        self.max_new_tokens = max_new_tokens

    def normalise_target(self, task: TaskSpec, value: Any) -> Any:
        lookup = _label_lookup(task)
        key = _label_key(value)
        if key not in lookup:
            raise _data_error(
                f"task {task.name!r}: target value {value!r} is not one of the labels {task.label_names}"
            )
        return lookup[key]

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return dict(Counter(targets))

    def hold_out(self, task, items, targets, test_size, seed):
        from seebench.tasks.splits import stratified_split

        return stratified_split(items, targets, test_size, seed)

    def split_description(self, task: TaskSpec) -> str:
        return "stratified hold-out"

    def shot_stratum(self, task: TaskSpec, target: Any) -> Any:
        return target

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        names = ", ".join(task.label_names)
        return AnswerFormat(
            "Label",
            "classify",
            "classification",
            f"Reply with exactly one label, chosen from: {names}.",
            self.max_new_tokens,
        )

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        from seebench.tasks.parsing import parse_label

        return parse_label(task, text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        counts = Counter(targets)
        # ties broken by label order, so the answer is deterministic
        return max(
            task.label_names, key=lambda label: (counts[label], -task.label_names.index(label))
        )


class LabelSetType(TaskType):
    """Any subset of the labels per input; iterative stratification; exact-set scores."""

    target_kind = types.LABEL_SET
    default_metrics = CLASSIFICATION_METRICS

    def normalise_target(self, task: TaskSpec, value: Any) -> Any:
        lookup = _label_lookup(task)
        out = []
        for item in value if isinstance(value, list) else [value]:
            key = _label_key(item)
            if key not in lookup:
                raise _data_error(
                    f"task {task.name!r}: label {item!r} is not one of {task.label_names}"
                )
            out.append(lookup[key])
        return sorted(set(out), key=task.label_names.index)

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        counts = Counter(label for t in targets for label in t)
        counts["(none)"] = sum(1 for t in targets if not t)
        return {k: v for k, v in counts.items() if v}

    def hold_out(self, task, items, targets, test_size, seed):
        from seebench.tasks.splits import iterative_stratified_split

        return iterative_stratified_split(items, [list(t) for t in targets], test_size, seed)

    def split_description(self, task: TaskSpec) -> str:
        return "iterative-stratified hold-out"

    def sample_score(self, task: TaskSpec, gold: Any, prediction: Any) -> float:
        return 0.0 if prediction is None else float(set(gold) == set(prediction))

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        from seebench.tasks.parsing import NO_LABELS

        names = ", ".join(task.label_names)
        return AnswerFormat(
            "Labels",
            "classify",
            "classification",
            f"Reply with every label that applies, separated by commas, chosen from: {names}; "
            f"reply {NO_LABELS} if no label applies.",
            48,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        from seebench.tasks.parsing import NO_LABELS

        return ", ".join(target) if target else NO_LABELS

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        from seebench.tasks.parsing import parse_label_list

        return parse_label_list(task, text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        counts = Counter(label for t in targets for label in t)
        return [label for label in task.label_names if counts[label] * 2 >= len(targets)]


class NumberType(TaskType):
    """A number in a known range per input; per-sample score is 1 - the SMAPE term."""

    target_kind = types.NUMBER
    default_metrics = ("one_minus_smape", "smape", "mae")

    def normalise_target(self, task: TaskSpec, value: Any) -> Any:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise _data_error(f"task {task.name!r}: target {value!r} is not a number") from None

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any] | None:
        if not targets:
            return None
        return {
            "min": min(targets),
            "max": max(targets),
            "mean": round(sum(targets) / len(targets), 3),
        }

    def sample_score(self, task: TaskSpec, gold: Any, prediction: Any) -> float:
        if prediction is None:
            return 0.0
        denominator = (abs(gold) + abs(prediction)) / 2  # SELU Eq. 2 per sample, in [-1, 1]
        return 1.0 if denominator == 0 else 1.0 - abs(gold - prediction) / denominator

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        low, high = task.value_range or (None, None)
        span = f" between {low:g} and {high:g}" if low is not None else ""
        return AnswerFormat(
            "Value",
            "estimate",
            "estimation",
            f"Reply with a single number{span} and nothing else.",
            12,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        return f"{float(target):g}"

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        from seebench.tasks.parsing import parse_number

        return parse_number(task, text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        values = sorted(targets)
        return values[len(values) // 2]  # the median stands in for the most frequent value


class TokenListType(TaskType):
    """A list per input (tags per token, or masked words): scored by the fraction of positions
    answered correctly, ignoring case."""

    default_metrics: tuple[str, ...] = ()

    def __init__(self, target_kind: str, metric: str):
        self.target_kind = target_kind
        self.default_metrics = (metric,)

    def sample_score(self, task: TaskSpec, gold: Any, prediction: Any) -> float:
        if prediction is None:
            return 0.0
        if not isinstance(gold, list | tuple):
            return float(gold == prediction)
        if not gold:
            return 1.0
        pred = list(prediction) if isinstance(prediction, list | tuple) else [prediction]
        hits = sum(
            1
            for i, g in enumerate(gold)
            if i < len(pred) and str(pred[i]).lower() == str(g).lower()
        )
        return hits / len(gold)

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        if self.target_kind == types.TAG_SEQUENCE:
            return dict(Counter(tag[2:] for t in targets for tag in t if tag.startswith("B-")))
        return {"masked_words": sum(len(t) for t in targets)}


REGRESSION_SCHEMA = {
    "properties": {
        "value_range": {
            "type": "array",
            "items": {"type": "number"},
            "minItems": 2,
            "maxItems": 2,
            "description": "Inclusive [min, max] of the target; predictions are clipped to it.",
        }
    },
    "required": ["value_range"],
}
MLM_SCHEMA = {
    "properties": {
        "mask_token": {
            "type": "string",
            "description": "Placeholder marking a masked word in the input.",
        }
    }
}
LABELS_REQUIRED = {"required": ["labels"]}


@hookimpl
def register_task_types(register: RegisterTaskType) -> None:
    register(
        "binary",
        LabelType(max_new_tokens=8),
        description="One of two labels per input.",
        schema=LABELS_REQUIRED,
    )
    register(
        "multiclass",
        LabelType(max_new_tokens=16),
        description="One of several labels per input.",
        schema=LABELS_REQUIRED,
    )
    register(
        "multilabel",
        LabelSetType(),
        description="Any subset of the labels per input.",
        schema=LABELS_REQUIRED,
    )
    register(
        "regression",
        NumberType(),
        description="A number in a known range per input.",
        schema=REGRESSION_SCHEMA,
    )
    register(
        "ner",
        TokenListType(types.TAG_SEQUENCE, "entity_f1_micro"),
        description="Named-entity recognition: a BIO tag per token; labels are the entity types.",
        schema=LABELS_REQUIRED,
    )
    register(
        "mlm",
        TokenListType(types.MASKED_WORDS, "masked_accuracy"),
        description="Masked language modelling: predict the masked words of each input.",
        schema=MLM_SCHEMA,
    )
