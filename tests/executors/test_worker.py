"""The worker's side of a unit: a unit that waits on a model server keeps its turn at
preparing data until it sends (:func:`seebench.executors.worker.kept_turn`)."""

from __future__ import annotations

import threading

from seebench import turns
from seebench.executors.plan import Resources, Unit
from seebench.executors.worker import kept_turn
from seebench.runner.config import EvalConfig


def _unit(waits_on_server: bool) -> Unit:
    config = EvalConfig(model="openai:m", tasks="t")
    resources = Resources(cpu=0.25, waits_on_server=waits_on_server)
    return Unit("openai:m", "m", "zero-shot", "t", config, resources)


def _next_unit_waits(monkeypatch, unit: Unit) -> bool:
    """Whether another thread waits to prepare after ``unit``'s thread prepared."""
    monkeypatch.setattr(turns, "_TURN", turns._Turn())
    prepared = threading.Event()

    def prepare() -> None:
        with turns.preparing(5.0):
            prepared.set()

    with kept_turn(unit):
        with turns.preparing(1.0):
            pass
        other = threading.Thread(target=prepare)
        other.start()
        waited = not prepared.wait(0.2)
    other.join(5)
    return waited


def test_a_unit_that_waits_on_a_server_keeps_its_turn_until_it_sends(monkeypatch):
    assert _next_unit_waits(monkeypatch, _unit(waits_on_server=True))


def test_other_units_pass_the_turn_on_as_soon_as_their_data_is_ready(monkeypatch):
    assert not _next_unit_waits(monkeypatch, _unit(waits_on_server=False))
