"""Similarity metrics on the study's 450 scoring items: seebench versus the study's approach.

    .venv/bin/python benchmarks/judge.py [--data ../shared/data/llm_judge] [--metrics bleu,...]

(a) seebench: :mod:`seebench.suites.judge.similarity` (metric objects built once, ROUGE-L's
    longest common subsequence from rapidfuzz).
(b) reference: what the study's ``1_sim.py`` does through HF ``evaluate``'s metric scripts:
    one library call per item that builds its metric object on every call (a new sacrebleu
    ``BLEU``/``CHRF``, a new rouge-score ``RougeScorer`` with its pure-Python LCS table, NLTK's
    METEOR with a fresh word split), o200k tokens as the study.

Both run in this process, on the same items, in the same order. Prints the wall time of each per
metric, the ratio, and the largest difference between the two sides and against the released
per-item scores (CrystalBLEU is left out: its ignored n-grams came from an unreleased corpus).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

SCORING = ("codetransocean_scoring", "codexglue_scoring", "complexcodeeval_scoring")
RELEASED_NAME = {"bleu": "bleu", "chrf++": "chrf", "rouge-l": "rouge", "meteor": "meteor"}


def seebench_metrics():
    from seebench.suites.judge import similarity

    return {
        "bleu": similarity.bleu,
        "chrf++": similarity.chrf_pp,
        "rouge-l": similarity.rouge_l,
        "meteor": similarity.meteor,
    }


def reference_metrics():
    """One fresh metric object per call, as the study's per-item ``evaluate`` calls."""
    from nltk.translate.meteor_score import meteor_score
    from rouge_score.rouge_scorer import RougeScorer
    from sacrebleu.metrics import BLEU, CHRF

    from seebench.suites.judge.similarity import METEOR_PARAMETERS, meteor_words
    from seebench.suites.judge.tokenizer import O200kTokenizer, o200k_ids
    from seebench.suites.judge.wordnet import wordnet_reader

    def joined(text: str) -> str:
        return " ".join(str(t) for t in o200k_ids(text))

    def bleu(prediction: str, reference: str) -> float:
        metric = BLEU(tokenize="none", smooth_method="none", effective_order=False)
        return metric.sentence_score(joined(prediction), [joined(reference)]).score

    def chrf(prediction: str, reference: str) -> float:
        return CHRF(word_order=2).sentence_score(prediction, [reference]).score

    def rouge(prediction: str, reference: str) -> float:
        scorer = RougeScorer(["rougeL"], use_stemmer=False, tokenizer=O200kTokenizer())
        return scorer.score_multi([reference], prediction)["rougeL"].fmeasure * 100

    def meteor(prediction: str, reference: str) -> float:
        words = meteor_words
        value = meteor_score(
            [words(reference)], words(prediction), wordnet=wordnet_reader(), **METEOR_PARAMETERS
        )
        return value * 100

    return {"bleu": bleu, "chrf++": chrf, "rouge-l": rouge, "meteor": meteor}


def timed(function, items) -> tuple[float, list[float]]:
    start = time.perf_counter()
    values = [function(output, gold) for output, gold in items]
    return time.perf_counter() - start, values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_data = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "llm_judge"
    parser.add_argument("--data", type=Path, default=default_data)
    parser.add_argument("--metrics", default=",".join(RELEASED_NAME))
    args = parser.parse_args(argv)

    from seebench.suites.judge.readers import load_released_task
    from seebench.suites.judge.tokenizer import o200k_encoding

    ours, theirs = seebench_metrics(), reference_metrics()
    chosen = [m.strip() for m in args.metrics.split(",") if m.strip()]
    unknown = sorted(set(chosen) - set(ours))
    if unknown:
        print(f"unknown metric(s): {', '.join(unknown)} (choose from {', '.join(ours)})")
        return 2
    missing = [args.data.resolve() / name for name in SCORING]
    missing = [path for path in missing if not path.is_dir()]
    if missing:
        print(f"judge data unavailable: {missing[0]} is not a directory (see docs/tasks/judge.md)")
        return 0
    tasks = [load_released_task(args.data.resolve() / name) for name in SCORING]
    items = [(r.output, r.gold) for task in tasks for r in task.responses]
    released = {
        metric: [v for task in tasks for v in task.methods[name]]
        for metric, name in RELEASED_NAME.items()
    }
    o200k_encoding()  # one-off loads, outside both timings
    if "meteor" in chosen:  # only METEOR needs WordNet (Debian's wordnet-base)
        from seebench.suites.judge.wordnet import WordNetUnavailableError, wordnet_reader

        try:
            wordnet_reader()
        except WordNetUnavailableError as exc:
            print(f"meteor unavailable: {exc}")
            return 0

    print(f"{len(items)} scoring items from {args.data}")
    header = f"{'metric':8} {'seebench s':>10} {'reference s':>11} {'ratio':>7}"
    print(f"{header} {'max |ours-ref|':>15} {'max |ours-released|':>20}")
    total_ours = total_ref = 0.0
    for metric in chosen:
        ours_time, ours_values = timed(ours[metric], items)
        ref_time, ref_values = timed(theirs[metric], items)
        total_ours += ours_time
        total_ref += ref_time
        between = max(abs(a - b) for a, b in zip(ours_values, ref_values, strict=True))
        vs_released = max(abs(a - b) for a, b in zip(ours_values, released[metric], strict=True))
        print(
            f"{metric:8} {ours_time:10.2f} {ref_time:11.2f} {ref_time / ours_time:6.1f}x "
            f"{between:15.3g} {vs_released:20.3g}"
        )
    print(f"{'all':8} {total_ours:10.2f} {total_ref:11.2f} {total_ref / total_ours:6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
