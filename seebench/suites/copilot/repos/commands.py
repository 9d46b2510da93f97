"""``seebench copilot envs``: build the repository environments and print their table."""

from __future__ import annotations

import fnmatch
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import click

from seebench.suites.copilot.repos.staging import FACTS_FILE, StagedRepo

REPOS_LIST = FACTS_FILE.with_suffix(".sha256")
COLUMNS = ("repository", "language", "whole", "status", "runner", "passing", "failing")


def staged_repositories() -> list[StagedRepo]:
    """Every staged repository, from the data cache (an error says how to import them)."""
    from seebench.data.file_sets import open_file_set
    from seebench.data.sources import Source
    from seebench.suites.copilot.repos.staging import staged_repos

    source = Source(
        task="copilot_repo (repository environments)",
        index=0,
        name="copilot_repos",
        format="file_set",
        url=None,
        sha256=None,
        path=None,
        options={},
        split=None,
        files=REPOS_LIST,
    )
    return staged_repos(open_file_set(source))


def import_repos(directory: Path) -> tuple[int, int]:
    """Copy the staged repository tars found under ``directory`` (the data mirror, its
    ``copilot_harness`` folder or the ``repos`` folder itself) into the data cache by
    checksum; return (copied, already cached). A file whose checksum differs is an error."""
    from seebench.data.cache import cached_file, sha256_file, store_file
    from seebench.data.file_sets import read_file_list
    from seebench.errors import SeebenchError

    copied = cached = 0
    for member in read_file_list(REPOS_LIST):
        if cached_file(member.sha256) is not None:
            cached += 1
            continue
        for base in (directory, directory / "copilot_harness", directory.parent):
            path = base / member.path
            if path.is_file():
                if sha256_file(path) != member.sha256:
                    raise SeebenchError(f"{path}: checksum differs from {REPOS_LIST.name}")
                store_file(path, member.sha256, member.file_name)
                copied += 1
                break
    return copied, cached


def select_repos(
    repos: list[StagedRepo], pattern: str | None, shard: str | None
) -> list[StagedRepo]:
    """The repositories matching ``pattern`` (a glob on ``owner/name`` or the slug, or a
    substring), then shard ``i/n`` of them (position modulo n, as task shards)."""
    from seebench.runner.config import parse_shard

    if pattern:
        repos = [repo for repo in repos if _matches(repo, pattern)]
    if shard:
        i, n = parse_shard(shard)
        repos = [r for position, r in enumerate(repos) if position % n == i - 1]
    return repos


def _matches(repo: StagedRepo, pattern: str) -> bool:
    if any(char in pattern for char in "*?["):
        return fnmatch.fnmatch(repo.repo, pattern) or fnmatch.fnmatch(repo.slug, pattern)
    return pattern in repo.repo or pattern in repo.slug


def _row(repo: StagedRepo, build: bool, retry_failed: bool) -> dict:
    from seebench.errors import SeebenchError
    from seebench.suites.copilot.repos.envs import describe, ensure_env

    try:
        env = ensure_env(repo, build=build, retry_failed=retry_failed)
    except (OSError, SeebenchError) as error:  # one repository never stops the table
        return {
            "repository": repo.repo,
            "slug": repo.slug,
            "language": repo.language,
            "status": "failed",
            "runner": "",
            "passing": 0,
            "failing": 0,
            "build_s": 0.0,
            "suite_s": 0.0,
            "reason": f"error: {error}",
            "whole_tree": repo.whole_tree,
        }
    return {**describe(env), "whole_tree": repo.whole_tree}


@click.command("envs")
@click.option(
    "--import",
    "import_dir",
    default=None,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="First copy the repository tars found under this data mirror into the cache.",
)
@click.option("--build", is_flag=True, help="Build the environments that are not cached.")
@click.option(
    "--retry-failed", is_flag=True, help="With --build: build again those recorded as failed."
)
@click.option(
    "--repos",
    "pattern",
    default=None,
    help="Only repositories matching this glob (owner/name or slug) or containing this text.",
)
@click.option(
    "--language",
    "languages",
    multiple=True,
    type=click.Choice(["python", "javascript", "typescript"]),
    help="Only repositories of this language (repeatable).",
)
@click.option("--shard", default=None, help="Only shard i of n (1-based) of the repositories.")
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 16),
    help="Repositories built in parallel.",
)
@click.option(
    "--json",
    "json_file",
    default=None,
    type=click.Path(dir_okay=False),
    help="Also write the table as JSON to this file.",
)
def envs_command(
    import_dir: Path | None,
    build: bool,
    retry_failed: bool,
    pattern: str | None,
    languages: tuple[str, ...],
    shard: str | None,
    workers: int,
    json_file: str | None,
) -> None:
    """The repository environments of the copilot_repo suite: status, tests passing and
    failing offline, build and suite seconds, and the reason of every one not ready."""
    from seebench.errors import SeebenchError

    try:
        if import_dir is not None:
            copied, cached = import_repos(import_dir)
            click.echo(f"{copied} repository tars imported, {cached} already cached")
        repos = staged_repositories()
        if languages:
            repos = [repo for repo in repos if repo.language in languages]
        repos = select_repos(repos, pattern, shard)
    except SeebenchError as error:  # missing data, a bad shard: one line, no traceback
        raise click.ClickException(str(error)) from None
    rows: list[dict] = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for row in pool.map(lambda repo: _row(repo, build, retry_failed), repos):
            rows.append(row)
            click.echo(_line(row))
            if json_file:  # rewritten after each repository: nothing computed is lost
                Path(json_file).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    whole = sum(row["whole_tree"] for row in rows)
    ready = counts.get("ready", 0)
    click.echo(
        f"{len(rows)} repositories ({whole} whole trees): {ready} ready, "
        f"{counts.get('failed', 0)} failed, {counts.get('excluded', 0)} excluded"
    )


def _line(row: dict) -> str:
    timing = f"{row['build_s']:7.1f}s {row['suite_s']:6.1f}s"
    return (
        f"{row['repository'][:38]:38s} {row['language'][:10]:10s} "
        f"{'whole' if row['whole_tree'] else 'cases':5s} {row['status']:8s} {row['runner'] or '-':7s} "
        f"{row['passing']:5d} {row['failing']:4d} {timing}  {row['reason']}"
    )


def add_commands(cli: click.Group) -> None:
    """Add ``envs`` to the ``copilot`` command group (created when missing)."""
    from seebench.suites.copilot.fix.commands import _copilot_group

    _copilot_group(cli).add_command(envs_command)
