"""A well-formed plugin touching every registration hook."""

from __future__ import annotations

from pathlib import Path

from seebench import hookimpl
from seebench.tasks.types import TaskType

EVENTS: list = []


def always_half(golds, predictions, labels=None) -> float:
    return 0.5


def echo_reader(path: Path, **options) -> list[dict]:
    return [{"input": line, "target": "a"} for line in path.read_text().splitlines()]


def upper_step(rows, *, column: str) -> list[dict]:
    for row in rows:
        row[column] = str(row[column]).upper()
    return rows


def text_exporter(report, out_dir: Path) -> list[Path]:
    path = out_dir / "report.txt"
    path.write_text(str(report))
    return [path]


class EchoMethod:
    name = "echo"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        from seebench.methods import MethodOutput, Prediction

        return MethodOutput([Prediction(s.id, s.target) for s in context.data.test])


class RankingType(TaskType):
    """A list of candidate ids per input, scored by exact order."""

    default_metrics = ("always_half",)


def resolve_echo(spec: str):
    from seebench.models import ModelRef

    return ModelRef(spec=spec, id="echo", kind="test")


@hookimpl
def register_task_types(register):
    register(
        "ranking",
        RankingType(),
        description="Order candidates.",
        schema={"properties": {"candidates": {"type": "integer"}}, "required": ["candidates"]},
    )


@hookimpl
def register_metrics(register):
    register("always_half", always_half, description="Constant 0.5.")


class LengthScorer:
    """Scores a prediction by whether its text is at least ``min_length`` long."""

    def __init__(self, min_length: int = 1):
        self.min_length = min_length

    def identity(self):
        return {"min_length": self.min_length}

    def score(self, sample, prediction, context):
        from seebench.scoring import Score

        return Score(float(len(str(prediction)) >= self.min_length), answer=len(str(prediction)))


@hookimpl
def register_scorers(register):
    register(
        "length",
        LengthScorer,
        description="Prediction at least min_length long.",
        options={"min_length": {"type": "integer", "minimum": 0}},
    )


@hookimpl
def register_methods(register):
    register("echo", EchoMethod, description="Predicts the gold target.")


@hookimpl
def register_models(register):
    register("echo-model", resolve_echo, description="A test model.", default_method="echo")


@hookimpl
def register_backends(register):
    register(
        "good-echo",
        "tests.plugins.backend_plugin:EchoBackend",
        description="A chat backend that echoes the last message.",
        options={"shout": {"type": "boolean"}},
        placement="none",
    )


@hookimpl
def register_data_readers(register):
    register("lines", echo_reader, description="One row per line.")


@hookimpl
def register_data_files(register):
    register(
        "good-notes",
        "0" * 64,
        file_name="notes.txt",
        description="A file the plugin reads outside its tasks.",
    )


@hookimpl
def register_prepare_steps(register):
    register(
        "upper",
        upper_step,
        description="Upper-case a column.",
        schema={
            "type": "object",
            "required": ["column"],
            "additionalProperties": False,
            "properties": {"column": {"type": "string"}},
        },
    )


@hookimpl
def register_exporters(register):
    register("text", text_exporter, description="str(report) to report.txt.")


@hookimpl
def register_task_dirs(register):
    pass


@hookimpl
def register_suites(register):
    register(
        "good-suite",
        description="A test suite.",
        task_families={"alpha": "fam"},
        model_groups={"echo": "testers"},
        compare_task_types=("binary",),
    )


@hookimpl
def register_executors(register):
    register(
        "good-local",
        "seebench.executors.local:create_local",
        description="The local executor under another name.",
    )


@hookimpl
def register_commands(cli):
    import click

    @cli.command("hello-test")
    def hello():
        """Say hello."""
        click.echo("hello from a plugin")


@hookimpl
def on_unit_finished(event):
    EVENTS.append(event)
