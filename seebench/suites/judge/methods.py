"""The study's judging methods, as named in its released file names.

For each method: its family, the scale its prompt asked for (``None`` for unbounded metric
values), and whether the study wrote ``-1`` when it could not parse a reply. This is what lets
the analysis tell a parse failure or an out-of-scale reply from a real score.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReleasedMethod:
    """A judging method of the study and how to read its released scores."""

    name: str
    family: str
    description: str
    scale: tuple[float, float] | None = None
    failure_marker: float | None = None

    def is_unscored(self, value: float) -> bool:
        """True when a released value is a parse failure or lies outside the prompt's scale."""
        if self.failure_marker is not None and value == self.failure_marker:
            return True
        if self.scale is None:
            return False
        low, high = self.scale
        return not low <= value <= high


SIMILARITY = "similarity"
EMBEDDING = "embedding"
PROBABILITY = "probability"
PROMPTED = "prompted"
VANILLA = "vanilla"

_FIVE = (1.0, 5.0)
_TEN = (1.0, 10.0)

RELEASED_METHODS: dict[str, ReleasedMethod] = {
    m.name: m
    for m in (
        ReleasedMethod("bleu", SIMILARITY, "sentence BLEU on o200k token ids"),
        ReleasedMethod("rouge", SIMILARITY, "ROUGE-L F-measure on o200k token ids"),
        ReleasedMethod("meteor", SIMILARITY, "METEOR (NLTK) on Treebank words"),
        ReleasedMethod("chrf", SIMILARITY, "chrF++ (character and word-bigram F-score)"),
        ReleasedMethod(
            "crystalbleu", SIMILARITY, "BLEU ignoring the corpus's 500 commonest n-grams"
        ),
        ReleasedMethod("bertscore", EMBEDDING, "BERTScore F1"),
        ReleasedMethod("moverscore", EMBEDDING, "MoverScore"),
        ReleasedMethod("gptscore", PROBABILITY, "GPTScore (mean log-probability of the response)"),
        ReleasedMethod("fflm", PROBABILITY, "FFLM (probability-change faithfulness score)"),
        ReleasedMethod(
            "geval", PROMPTED, "G-Eval: generated steps, probability-weighted 1-5", _FIVE
        ),
        ReleasedMethod(
            "batcheval", PROMPTED, "BatchEval: batches of 10, averaged rounds, 1-5", _FIVE
        ),
        ReleasedMethod("llama2", VANILLA, "Llama-2-13B-chat, rating 1-10", _TEN, -1.0),
        ReleasedMethod("autoj", VANILLA, "Auto-J-13B, rating 1-10", _TEN, -1.0),
        ReleasedMethod("mixtral", VANILLA, "Mixtral-8x7B-Instruct, rubric 1-5", _FIVE, -1.0),
        ReleasedMethod("prometheus", VANILLA, "Prometheus-2-8x7B, rubric 1-5", _FIVE, -1.0),
        ReleasedMethod("dsc2-lite", VANILLA, "DeepSeek-Coder-V2-Lite, 'Overall: X/5'", _FIVE, -1.0),
        ReleasedMethod("dsc2.5", VANILLA, "DeepSeek-V2.5, 'Overall: X/5'", _FIVE, -1.0),
        ReleasedMethod("gpt4o", VANILLA, "GPT-4o, 'Overall: X/5'", _FIVE, -1.0),
    )
}

#: In the comparison variant every method gives a verdict in [-1, 1]: 1 = the first response
#: is better, -1 = the second, 0 = a tie (G-Eval's probability-weighted verdicts lie between).
VERDICT_SCALE = (-1.0, 1.0)
