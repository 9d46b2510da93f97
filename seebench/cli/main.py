"""Entry point of the ``seebench`` command: a click group that plugins extend.

Every sub-command, built-in ones included, is added through the ``register_commands`` hook.
User errors (:class:`seebench.errors.SeebenchError`) print as one line without a traceback.
"""

from __future__ import annotations

import atexit
import gc
import sys

import click

from seebench import __version__
from seebench.errors import SeebenchError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="seebench")
def cli() -> None:
    """seebench: evaluate models on software-engineering benchmarks."""


def build_cli() -> click.Group:
    """Load plugins and let each add its commands to :data:`cli`.

    The cyclic garbage collector is paused meanwhile: loading the plugins makes no garbage
    worth collecting, and its passes over every object imported so far cost a few hundredths
    of a second per start."""
    import gc

    from seebench.plugin_manager import call_register_commands, get_plugin_manager

    collecting = gc.isenabled()
    gc.disable()
    try:
        pm = get_plugin_manager()
        call_register_commands(pm, cli)
    finally:
        if collecting:
            gc.enable()
    return cli


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; exits with the command's status."""
    _skip_final_collection()
    try:
        group = build_cli()
        group.main(args=argv, prog_name="seebench", standalone_mode=False)
    except SeebenchError as exc:
        _report(exc)
    except ModuleNotFoundError as exc:
        from seebench.extras import missing_extra

        found = missing_extra(exc)
        if found is None:
            raise
        _report(found)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    sys.exit(0)


def _skip_final_collection() -> None:
    """At exit, after the other exit handlers, freeze the objects the run made, so that the
    interpreter's last garbage collection does not walk them all again (a third of a second
    after a large run; registered first, so it runs last)."""
    global _FREEZE_REGISTERED
    if not _FREEZE_REGISTERED:
        _FREEZE_REGISTERED = True
        atexit.register(gc.freeze)


_FREEZE_REGISTERED = False


def _report(error: SeebenchError) -> None:
    """Print a user error as one line (secrets scrubbed) and exit 1."""
    from seebench.secrets import scrub

    click.echo(f"error: {scrub(str(error))}", err=True)
    sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
