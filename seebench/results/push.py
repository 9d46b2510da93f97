"""Publishing a results directory to a Hugging Face dataset repository (needs the network).

:func:`push_results` checks every result first (a broken one stops the push), collects the
files a reader needs (results, samples, artifacts, the stored run configurations; never work
folders, locks or temporary files), creates the dataset repository if it does not exist, and
sends them in one commit with ``huggingface_hub``. The token is ``huggingface_hub``'s own
(``$HF_TOKEN`` or ``hf auth login``); seebench never reads, prints or writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from seebench.errors import SeebenchError

#: Suffixes of files that are never pushed (locks, unfinished atomic writes).
SKIPPED_SUFFIXES = (".lock", ".tmp")


@dataclass(frozen=True)
class PushedResults:
    """What :func:`push_results` sent."""

    repo_id: str
    files: list[str]
    commit_url: str


def files_to_push(directory: Path) -> list[Path]:
    """Every file of ``directory`` worth publishing, sorted: nothing hidden, no lock or
    temporary file."""
    return sorted(
        p
        for p in directory.rglob("*")
        if p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(directory).parts)
        and not p.name.endswith(SKIPPED_SUFFIXES)
    )


def broken_results(directory: Path) -> list[str]:
    """One line per result under ``directory`` that ``seebench results check`` would flag."""
    from seebench.results.verify import verify_result

    problems = []
    for path in sorted(directory.rglob("*.json")):
        parts = path.relative_to(directory).parts
        if any(p.startswith(".") or p.endswith(".artifacts") for p in parts[:-1]):
            continue
        if path.name.endswith(".samples.json") or len(parts) != 3:  # MODEL/METHOD/TASK.json
            continue
        check = verify_result(path)
        if check.problem:
            problems.append(f"{path}: {check.problem}")
    return problems


def push_results(
    directory: Path,
    repo_id: str,
    *,
    private: bool = False,
    path_in_repo: str = "",
    message: str | None = None,
    endpoint: str | None = None,
) -> PushedResults:
    """Send ``directory`` to the dataset repository ``repo_id`` in one commit."""
    if not directory.is_dir():
        raise SeebenchError(f"{directory}: not a directory")
    problems = broken_results(directory)
    if problems:
        raise SeebenchError(
            f"{problems[0]} ({len(problems)} broken result(s); 'seebench results check' lists "
            f"them; nothing was pushed)"
        )
    files = files_to_push(directory)
    if not files:
        raise SeebenchError(f"{directory}: no result files to push")
    try:
        from huggingface_hub import CommitOperationAdd, HfApi
        from huggingface_hub.errors import HfHubHTTPError
    except ImportError:
        raise SeebenchError(
            "results push needs huggingface_hub: pip install 'seebench[trackers]'"
        ) from None
    api = HfApi(endpoint=endpoint)
    prefix = path_in_repo.strip("/")
    names = [p.relative_to(directory).as_posix() for p in files]
    operations = [
        CommitOperationAdd(path_in_repo=f"{prefix}/{name}" if prefix else name, path_or_fileobj=p)
        for name, p in zip(names, files, strict=True)
    ]
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        commit = api.create_commit(
            repo_id,
            operations,
            commit_message=message or f"seebench results: {len(files)} files",
            repo_type="dataset",
        )
    except HfHubHTTPError as exc:
        status = getattr(exc.response, "status_code", "?")
        raise SeebenchError(f"results push to {repo_id}: HTTP {status} from the Hub") from None
    except Exception as exc:  # the HTTP client's own errors: no network, DNS, refused...
        name = type(exc).__name__
        if isinstance(exc, OSError) or "Connect" in name or "Timeout" in name:
            raise SeebenchError(
                f"results push to {repo_id}: cannot reach the Hub ({name})"
            ) from None
        first = (str(exc).splitlines() or [""])[0]
        raise SeebenchError(f"results push to {repo_id} failed: {name}: {first}") from None
    return PushedResults(repo_id, names, str(commit.commit_url))
