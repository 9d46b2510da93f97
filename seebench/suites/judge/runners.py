"""The judging methods as seebench methods: similarity metrics, the study's released scores,
and LLM judges on the model client.

- ``--model sim:<metric>`` (``bleu``, ``rouge_l``, ``meteor``, ``chrf_pp``) with the
  ``similarity`` method: the response's similarity to the reference is the judge's score.
- ``--model released:<method>`` with the ``released`` method: the study's own score for the
  item (a parse failure or out-of-scale value is unscored unless ``as_released=true``).
- ``--method vanilla`` / ``batcheval`` (scoring tasks) and ``pairwise`` (comparison tasks) on
  any chat model (``smollm2``, ``hf:...``, ``openai:...``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from seebench.errors import ModelError, SeebenchError
from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef, chat_problem
from seebench.suites.judge import prompts
from seebench.suites.judge.methods import RELEASED_METHODS
from seebench.suites.judge.types import JUDGED_SCORE

SIMILARITY_METRICS = ("bleu", "rouge_l", "meteor", "chrf_pp")


def resolve_similarity(spec: str) -> ModelRef:
    """``sim:<metric>``: a reference-similarity metric used as a judge."""
    metric = spec.split(":", 1)[1] if ":" in spec else ""
    if metric not in SIMILARITY_METRICS:
        raise ModelError(
            f"unknown similarity metric in {spec!r} (choose from {', '.join(SIMILARITY_METRICS)})"
        )
    from seebench.suites.judge.similarity import library_versions

    return ModelRef(
        spec=spec,
        id=f"sim-{metric}",
        kind="rule",
        identity={"metric": metric, "tokenization": "o200k", "versions": library_versions()},
    )


def resolve_released(spec: str) -> ModelRef:
    """``released:<method>``: the study's released scores of one judging method."""
    method = spec.split(":", 1)[1] if ":" in spec else ""
    if method not in RELEASED_METHODS:
        raise ModelError(
            f"unknown released method in {spec!r} (choose from {', '.join(RELEASED_METHODS)})"
        )
    return ModelRef(
        spec=spec,
        id=f"released-{method}",
        kind="rule",
        identity={"released_method": method, "source": "BackOnTruck/llm-judge-empirical"},
    )


def _judged_item(sample: Any) -> prompts.JudgeItem:
    item = sample.input
    return prompts.JudgeItem(item["task_input"], item.get("response", ""), tuple(item["languages"]))


def _kind(context: RunContext) -> prompts.JudgeTaskKind:
    kind = context.task.tags.get("judged", "")
    if kind not in prompts.KINDS:
        raise ModelError(
            f"task {context.task.name!r}: tags.judged must be one of {', '.join(prompts.KINDS)}"
        )
    return prompts.KINDS[kind]


class SimilarityMethod:
    """Scores each response by its similarity to the reference (the model names the metric)."""

    name = "similarity"

    def not_applicable(self, task: Any, model: ModelRef) -> str | None:
        if not model.spec.startswith("sim:") or "metric" not in model.identity:
            return "the similarity method needs a sim:<metric> model"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        from seebench.suites.judge import similarity

        metric = getattr(similarity, context.model.identity["metric"])
        predictions = []
        for sample in context.data.test:
            try:
                value = metric(sample.input["response"], sample.input["reference"])
                predictions.append(Prediction(sample.id, value))
            except Exception as exc:  # one bad item never stops the run
                predictions.append(
                    Prediction(sample.id, None, error=f"{type(exc).__name__}: {exc}")
                )
            context.advance(1)
        return MethodOutput(predictions, {"versions": similarity.library_versions()})


class ReleasedMethod:
    """Replays the study's released score of each item for one judging method."""

    name = "released"

    def not_applicable(self, task: Any, model: ModelRef) -> str | None:
        if "released_method" not in model.identity:
            return "the released method needs a released:<method> model"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        name = context.model.identity["released_method"]
        info = RELEASED_METHODS[name]
        keep = bool(context.options.get("as_released", False))
        predictions = []
        for sample in context.data.test:
            released = sample.meta.get("released", {})
            if name not in released:
                predictions.append(
                    Prediction(sample.id, None, error=f"the study released no {name} score here")
                )
            elif (
                info.is_unscored(released[name])
                and not keep
                and context.task.behaviour.target_kind == JUDGED_SCORE
            ):
                predictions.append(
                    Prediction(
                        sample.id,
                        None,
                        raw=str(released[name]),
                        error=f"released value {released[name]:g} is a parse failure "
                        "or outside the prompt's scale",
                    )
                )
            else:
                predictions.append(Prediction(sample.id, released[name], raw=str(released[name])))
            context.advance(1)
        return MethodOutput(predictions, {"released_method": name, "as_released": keep})


class _PrefetchedChat:
    """A chat function whose replies to known prompts were generated in one batched call
    (the client batches local models); other prompts go to the client one by one."""

    def __init__(self, context: RunContext, prompt_texts: list[str], max_tokens: int):
        from seebench.models.chat import Prompt
        from seebench.suites.judge.judging import messages_for

        self.client = context.client
        self.replies: dict[str, Any] = {}
        unique = list(dict.fromkeys(prompt_texts))
        batch = [Prompt(f"judge-{i}", tuple(messages_for(text))) for i, text in enumerate(unique)]
        if batch:
            generated = self.client.generate(
                batch, max_new_tokens=max_tokens, temperature=0.0, strip=True
            )
            self.replies = {text: g for text, (g, _) in zip(unique, generated, strict=True)}

    def __call__(self, messages, *, max_tokens, temperature, seed=0, logprobs=False):
        if logprobs:
            raise ModelError("this model client does not return top log-probabilities")
        reply = self.replies.get(messages[-1]["content"])
        if reply is None or temperature != 0.0:
            reply = self.client.chat(
                messages,
                max_new_tokens=max_tokens,
                temperature=temperature,
                seed=seed if temperature > 0 else None,  # n samples: n seeds, n cache entries
                strip=True,
            )
        if reply.text is None:
            raise ModelError(reply.error or "the model gave no reply")
        return reply


def _prediction(sample_id: str, judgment: Any) -> Prediction:
    return Prediction(
        sample_id,
        judgment.value,
        raw="\n---\n".join(judgment.raw),
        error=judgment.reason if judgment.value is None else None,
        extra={"rule": judgment.rule, "sampling": judgment.sampling, **judgment.extra},
    )


class VanillaJudgeMethod:
    """An LLM grades each response 1-5 with a rubric prompt (``Overall: X/5``)."""

    name = "vanilla"

    def option_schema(self, model: ModelRef) -> dict[str, Any] | None:
        """With a managed server, the method's options and the server's (``None``: the
        registered ones)."""
        from seebench.models.servers import is_served, served_option_schema
        from seebench.suites.judge.options import JUDGE_OPTIONS

        if not is_served(model):
            return None
        return {**served_option_schema(model), **JUDGE_OPTIONS[self.name]}

    def not_applicable(self, task: Any, model: ModelRef) -> str | None:
        return chat_problem(model, verb="judge")

    def run(self, context: RunContext) -> MethodOutput:
        from seebench.suites.judge.judging import judge_vanilla

        kind = _kind(context)
        max_tokens = int(context.options.get("max_new_tokens", 512))
        texts = [prompts.vanilla_prompt(kind, _judged_item(s)) for s in context.data.test]
        chat = _PrefetchedChat(context, texts, max_tokens)
        predictions = []
        for sample in context.data.test:
            try:
                judgment = judge_vanilla(
                    chat, kind, _judged_item(sample), max_tokens=max_tokens, seed=context.seed
                )
                predictions.append(_prediction(sample.id, judgment))
            except Exception as exc:
                predictions.append(
                    Prediction(sample.id, None, error=f"{type(exc).__name__}: {exc}")
                )
            context.advance(1)
        return MethodOutput(
            predictions, {"client": context.client.info(), **_unscored_summary(predictions)}
        )


class PairwiseJudgeMethod(VanillaJudgeMethod):
    """An LLM compares the item's two responses in both orders (``Overall: A|B|TIE``)."""

    name = "pairwise"

    def run(self, context: RunContext) -> MethodOutput:
        from seebench.suites.judge.judging import judge_pairwise

        kind = _kind(context)
        max_tokens = int(context.options.get("max_new_tokens", 512))
        texts = []
        for s in context.data.test:
            first, second = s.input["first"], s.input["second"]
            texts.append(prompts.pairwise_prompt(kind, _judged_item(s), first, second))
            texts.append(prompts.pairwise_prompt(kind, _judged_item(s), second, first))
        chat = _PrefetchedChat(context, texts, max_tokens)
        predictions = []
        for sample in context.data.test:
            item = _judged_item(sample)
            try:
                judgment = judge_pairwise(
                    chat,
                    kind,
                    item,
                    sample.input["first"],
                    sample.input["second"],
                    max_tokens=max_tokens,
                    seed=context.seed,
                )
                predictions.append(_prediction(sample.id, judgment))
            except Exception as exc:
                predictions.append(
                    Prediction(sample.id, None, error=f"{type(exc).__name__}: {exc}")
                )
            context.advance(1)
        biased = sum(bool(p.extra.get("position_biased")) for p in predictions)
        info = {
            "client": context.client.info(),
            **_unscored_summary(predictions),
            "position_biased": biased,
        }
        return MethodOutput(predictions, info)


class GEvalJudgeMethod(VanillaJudgeMethod):
    """G-Eval: evaluation steps generated once per task (greedy), then each response graded
    following them: the mean of ``samples`` grades sampled at ``temperature`` (the study's
    setting, each sample its own seed) or, with ``score_mode: logprob_weighted``, the
    probability-weighted grade (needs log-probabilities: not applicable without them)."""

    name = "geval"

    def run(self, context: RunContext) -> MethodOutput:
        from seebench.suites.judge.judging import geval_steps, judge_geval

        options = context.options
        if options.get("score_mode") == "logprob_weighted":
            raise SeebenchError(
                "G-Eval score_mode logprob_weighted needs the top log-probabilities of the grade "
                "token, which seebench's model client does not return; use score_mode: "
                "sample_mean"
            )
        kind = _kind(context)
        max_tokens = int(options.get("max_new_tokens", 16))
        chat = _PrefetchedChat(context, [], 0)
        items = [_judged_item(s) for s in context.data.test]
        steps = geval_steps(chat, kind, items[0], seed=context.seed) if items else ""

        def judge(pair: tuple[Any, prompts.JudgeItem]) -> Prediction:
            sample, item = pair
            try:
                judgment = judge_geval(
                    chat,
                    kind,
                    item,
                    steps,
                    mode=str(options.get("score_mode", "sample_mean")),
                    samples=int(options.get("samples", 10)),
                    temperature=float(options.get("temperature", 1.0)),
                    max_tokens=max_tokens,
                    seed=context.seed,
                )
                prediction = _prediction(sample.id, judgment)
            except Exception as exc:
                prediction = Prediction(sample.id, None, error=f"{type(exc).__name__}: {exc}")
            context.advance(1)
            return prediction

        # items are judged concurrently where the client takes requests in parallel (a
        # server); the predictions keep the items' order
        pairs = list(zip(context.data.test, items, strict=True))
        in_flight = getattr(context.client, "max_in_flight", lambda: 1)()
        with ThreadPoolExecutor(max_workers=in_flight) as pool:
            predictions = list(pool.map(judge, pairs))
        info = {"client": context.client.info(), "steps": steps, **_unscored_summary(predictions)}
        return MethodOutput(predictions, info)


class BatchEvalJudgeMethod(VanillaJudgeMethod):
    """BatchEval: the LLM grades batches of responses over several re-sorted rounds."""

    name = "batcheval"

    def run(self, context: RunContext) -> MethodOutput:
        from seebench.suites.judge.judging import judge_batcheval

        kind = _kind(context)
        chat = _PrefetchedChat(context, [], 0)
        items = [_judged_item(s) for s in context.data.test]
        judgments = judge_batcheval(
            chat,
            kind,
            items,
            rounds=int(context.options.get("rounds", 5)),
            batch_size=int(context.options.get("batch_size", 10)),
            max_tokens=int(context.options.get("max_new_tokens", 1024)),
            seed=context.seed,
        )
        predictions = [
            _prediction(s.id, j) for s, j in zip(context.data.test, judgments, strict=True)
        ]
        context.advance(len(predictions))
        return MethodOutput(
            predictions, {"client": context.client.info(), **_unscored_summary(predictions)}
        )


def _unscored_summary(predictions: list[Prediction]) -> dict[str, Any]:
    unscored = sum(p.prediction is None for p in predictions)
    rate = unscored / len(predictions) if predictions else 0.0
    return {"unscored": unscored, "summary": f"unscored {unscored}/{len(predictions)} ({rate:.0%})"}
