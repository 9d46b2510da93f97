"""Table: Krippendorff's alpha over all human raters of each annotation task (the paper's ``ALL``
rows) beside the mean / median of the pairwise alphas, at the task's declared level.

Usage::

    .venv/bin/python benchmarks/all_raters_alpha.py [--mirror ../shared/data]
"""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_MIRROR = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR)
    parser.add_argument("--tasks", help="only these tasks (comma-separated)")
    args = parser.parse_args()
    if not args.mirror.is_dir():
        print(f"annotation data unavailable: {args.mirror} is not a folder (the data mirror)")
        return

    from seebench.suites.annotation.agreement import agreement_by_level
    from seebench.suites.annotation.all_raters import all_raters_table
    from seebench.suites.annotation.task_config import load_task_ratings, task_names

    print(
        "| task | level | raters | items rated twice or more | all raters | pairwise mean / median |"
    )
    print("|---|---|---|---|---|---|")
    wanted = set(args.tasks.split(",")) if args.tasks else None
    for name in task_names():
        if wanted is not None and name not in wanted:
            continue
        data = load_task_ratings(name, args.mirror)
        table = all_raters_table(data)
        zone = agreement_by_level(data)[data.level].zones()["HH"]
        alpha = table["alpha"][data.level]
        print(
            f"| {name} | {data.level} | {table['raters']} | {table['items']} | "
            f"{'n/a' if alpha is None else f'{alpha:.3f}'} | "
            f"{zone['mean']:.3f} / {zone['median']:.3f} |"
        )


if __name__ == "__main__":
    main()
