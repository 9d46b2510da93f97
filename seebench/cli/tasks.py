"""``seebench tasks``: list, show and validate task definitions."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from seebench.errors import SeebenchError, TaskSpecError


def include_path_option(command):
    """``--include-path DIR`` (repeatable): task YAMLs of DIR join the registered tasks."""
    return click.option(
        "--include-path",
        "include_paths",
        multiple=True,
        type=click.Path(path_type=Path, file_okay=False),
        help="A directory of task YAMLs to use besides the registered ones, without writing a "
        "plugin (repeatable).",
    )(command)


def use_include_paths(paths: tuple[Path, ...]) -> None:
    """Hand ``--include-path`` directories to the task index (a no-op without any)."""
    if paths:
        from seebench.tasks.index import set_include_paths

        set_include_paths(paths)


@click.group("tasks")
def tasks_group() -> None:
    """Inspect and validate task definitions."""


@tasks_group.command("list")
@click.option("--suite", help="Only tasks of this suite.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@include_path_option
def list_tasks(suite: str | None, as_json: bool, include_paths: tuple[Path, ...]) -> None:
    """List registered tasks; invalid task files are listed as broken with their reason."""
    from seebench.plugin_manager import get_task_index

    use_include_paths(include_paths)
    index = get_task_index()
    tasks = sorted(index.summaries.values(), key=lambda t: (t.suite, t.name))
    broken = list(index.broken)
    if suite:
        index.check_suite(suite)
        tasks = [t for t in tasks if t.suite == suite]
        broken = [b for b in broken if b.suite in (suite, None)]
    if not as_json:
        lines = [f"{'SUITE':<12} {'TASK':<28} {'TYPE':<11} METRIC"]
        lines += [f"{t.suite:<12} {t.name:<28} {t.type:<11} {t.metric}" for t in tasks]
        lines += [f"{b.suite or '?':<12} {b.name:<28} BROKEN      {b.problems[0]}" for b in broken]
        lines.append(f"{len(tasks)} tasks" + (f", {len(broken)} broken" if broken else ""))
        click.echo("\n".join(lines))  # one write: an echo per line costs ~10 us each
        return
    rows: list[dict[str, Any]] = [
        {
            "name": t.name,
            "suite": t.suite,
            "type": t.type,
            "version": t.version,
            "metric": t.metric,
            "family": t.family,
            "activity": t.activity,
            "plugin": index.origins[t.name],
            "path": t.file,
            "status": "ok",
        }
        for t in tasks
    ]
    rows += [
        {
            "name": b.name,
            "suite": b.suite,
            "plugin": b.plugin,
            "path": str(b.path),
            "status": "broken",
            "problems": list(b.problems),
        }
        for b in broken
    ]
    click.echo(json.dumps(rows, indent=2))


@tasks_group.command("show")
@click.argument("name")
@click.option(
    "--prompt",
    "show_prompt",
    is_flag=True,
    help="Print the prompt a model receives for the first test instance instead.",
)
@click.option(
    "--shots",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="With --prompt: number of worked examples (k).",
)
def show_task(name: str, show_prompt: bool, shots: int) -> None:
    """Print a task's merged definition (after include:) as YAML, or with --prompt its prompt."""
    from seebench.plugin_manager import get_task_index

    task = get_task_index().get(name)
    if show_prompt:
        from seebench.errors import DataMissingError
        from seebench.methods.prompting.preview import preview_prompt
        from seebench.plugin_manager import get_registry

        try:
            click.echo(preview_prompt(task, get_registry(), shots=shots))
        except DataMissingError as exc:
            click.echo(f"{name}: no data to preview a prompt: {exc}".splitlines()[0])
            sys.exit(1)
        return
    import yaml

    click.echo(f"# {task.path}")
    click.echo(yaml.safe_dump(task.raw, sort_keys=False, allow_unicode=True, width=100).rstrip())


@tasks_group.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@include_path_option
def validate_tasks(paths: tuple[Path, ...], include_paths: tuple[Path, ...]) -> None:
    """Validate task YAML files (default: every registered task and those of --include-path).
    Exit 1 if any is invalid."""
    from seebench.plugin_manager import get_registry
    from seebench.tasks.validate import load_task

    use_include_paths(include_paths)
    registry = get_registry()
    files: list[Path] = []
    if not paths:
        from seebench.plugin_manager import get_task_index

        index = get_task_index()
        problems = [p for b in index.broken for p in b.problems]
        for line in problems:
            click.echo(line)
        click.echo(f"{len(index.summaries)} valid, {len(index.broken)} invalid", err=True)
        sys.exit(1 if problems else 0)
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.y*ml") if not p.name.startswith("_"))
        elif path.exists():
            files.append(path)
        else:
            raise SeebenchError(f"{path}: no such file or directory")
    invalid = 0
    for file in files:
        try:
            load_task(file, registry)
        except TaskSpecError as exc:
            invalid += 1
            for line in exc.problems:
                click.echo(line)
    click.echo(f"{len(files) - invalid} valid, {invalid} invalid", err=True)
    sys.exit(1 if invalid else 0)


@tasks_group.command("suites")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_suites(as_json: bool) -> None:
    """List the registered suites: plugin, number of tasks, task types compare ranks."""
    from seebench.plugin_manager import get_registry, get_task_index

    registry = get_registry()
    counts: dict[str, int] = {}
    for task in get_task_index().summaries.values():
        counts[task.suite] = counts.get(task.suite, 0) + 1
    rows: list[dict[str, Any]] = [
        {
            "name": s.name,
            "plugin": s.plugin,
            "tasks": counts.get(s.name, 0),
            "compare_task_types": list(s.compare_task_types),
            "description": s.description,
        }
        for s in sorted(registry.suites.values(), key=lambda s: s.name)
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        ranked = ", ".join(row["compare_task_types"]) or "all types"
        click.echo(
            f"{row['name']:<12} {row['tasks']:>3} tasks  compare ranks: {ranked}  "
            f"({row['plugin']}) {row['description']}"
        )
    click.echo(f"{len(rows)} suites registered")


@tasks_group.command("check")
@click.argument("selectors", nargs=-1)
@click.option(
    "--gold",
    is_flag=True,
    required=True,
    help="Run each task's reference answers (the oracle / reference model) and report the "
    "items whose gold fails or flips.",
)
@click.option(
    "--repeats",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Times each reference answer is scored, each from scratch.",
)
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N test items.")
@click.option(
    "--skip",
    type=click.IntRange(min=0),
    default=0,
    help="Leave out the first N test items (with --limit, check the next ones after them).",
)
@click.option(
    "--samples",
    "sample_ids",
    help="Only the test items with these ids: ID,ID,... or a file of ids, one a line.",
)
@click.option(
    "--record",
    is_flag=True,
    help="Write the flagged items into each task's exclusion list (data.exclude).",
)
@click.option(
    "--null/--no-null",
    "control",
    default=True,
    help="Also score the null model's (empty) answers once: an item they pass is weak.",
)
@click.option("--json", "json_path", type=click.Path(path_type=Path), help="Also write JSON.")
def check_tasks(
    selectors: tuple[str, ...],
    gold: bool,
    repeats: int,
    limit: int | None,
    skip: int,
    sample_ids: str | None,
    record: bool,
    control: bool,
    json_path: Path | None,
) -> None:
    """Check tasks' gold: TASKS are task or suite names (default: every task). Prints one row
    per task (items checked; stable, flaky, broken, infrastructure; already excluded; without
    a reference; passed by the null answer; seconds), then the flagged and the weak items.
    Exit 1 when an item is flagged or weak."""
    from seebench.cli import tasks_gold
    from seebench.cli.run_options import parse_sample_ids
    from seebench.plugin_manager import get_registry, get_task_index

    registry, index = get_registry(), get_task_index()
    samples = parse_sample_ids(sample_ids) if sample_ids is not None else None
    checks = []
    for task in index.select(",".join(selectors) if selectors else "all"):
        name = task.name
        check = tasks_gold.check_task(
            task,
            registry,
            repeats=repeats,
            limit=limit,
            control=control,
            skip=skip,
            sample_ids=samples,
        )
        checks.append(check)
        click.echo(f"{name}: {check.skipped or check.counts()}", err=True)
        if record and not check.skipped:
            command = f"seebench tasks check --gold --repeats {repeats} {name}"
            path = tasks_gold.record_exclusions(check, task, command)
            if path is not None:
                click.echo(f"{name}: exclusion list {path}", err=True)
                if not (task.data or {}).get("exclude"):
                    click.echo(f"{name}: add 'exclude: {path.name}' under data: in {task.path}")
    click.echo(tasks_gold.table(checks))
    for check in checks:
        for item in check.flagged():
            entry = item.as_dict()
            click.echo(f"{check.task} {entry['key']}: {entry['class']} {entry['runs']} "
                       f"{entry['reason']}")  # fmt: skip
        for item in check.weak():
            click.echo(f"{check.task} {item.key}: weak (the null answer passes)")
    if json_path is not None:
        rows = [check.as_dict() for check in checks]
        json_path.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", "utf-8")
    sys.exit(1 if any(check.flagged() or check.weak() for check in checks) else 0)
