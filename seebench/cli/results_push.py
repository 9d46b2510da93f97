"""``seebench results push``: publish a results directory as a Hugging Face dataset."""

from __future__ import annotations

import os
from pathlib import Path

import click


@click.command("push")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--repo", "repo_id", required=True, help="Dataset repository, e.g. me/seebench-runs.")
@click.option("--private", is_flag=True, help="Create the repository as private (if new).")
@click.option("--path-in-repo", default="", help="Folder inside the repository (default: root).")
@click.option("--message", help="Commit message.")
@click.option(
    "--endpoint",
    default=lambda: os.environ.get("HF_ENDPOINT"),
    help="Hub URL (default: $HF_ENDPOINT or huggingface.co).",
)
def push_command(
    directory: Path,
    repo_id: str,
    private: bool,
    path_in_repo: str,
    message: str | None,
    endpoint: str | None,
) -> None:
    """Push DIRECTORY (results of 'seebench eval') to the dataset repository --repo, in one
    commit. Needs the network and a Hub token ($HF_TOKEN or 'hf auth login'); every result is
    checked first and a broken one stops the push."""
    from seebench.results.push import push_results

    pushed = push_results(
        directory,
        repo_id,
        private=private,
        path_in_repo=path_in_repo,
        message=message,
        endpoint=endpoint,
    )
    click.echo(f"pushed {len(pushed.files)} files to {pushed.repo_id}: {pushed.commit_url}")
