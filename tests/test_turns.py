"""Turns at preparing (:mod:`seebench.turns`): one thread prepares at a time; a unit that
waits on a server keeps its turn until it sends, never for long."""

from __future__ import annotations

import threading

import pytest

from seebench import turns


@pytest.fixture(autouse=True)
def fresh_turn(monkeypatch):
    monkeypatch.setattr(turns, "_TURN", turns._Turn())


def _prepare_in_thread(order: list[str], name: str, wait_s: float = 5.0) -> threading.Thread:
    def prepare() -> None:
        with turns.preparing(wait_s):
            order.append(name)

    thread = threading.Thread(target=prepare)
    thread.start()
    return thread


def test_one_thread_prepares_at_a_time_and_the_turn_passes_on():
    order: list[str] = []
    with turns.preparing(1.0) as got:
        assert got
        other = _prepare_in_thread(order, "other")
        other.join(0.2)
        assert other.is_alive() and order == []  # waits while the turn is in use
        order.append("first")
    other.join(5)
    assert order == ["first", "other"]


def test_the_turn_is_reentrant_in_one_thread():
    with turns.preparing(1.0) as outer, turns.preparing(1.0) as inner:
        assert outer and inner


def test_a_kept_turn_holds_the_others_until_the_keeper_sends():
    order: list[str] = []
    with turns.kept_until_sending():
        with turns.preparing(1.0):
            order.append("first prepared")
        other = _prepare_in_thread(order, "other")
        other.join(0.2)
        assert other.is_alive()  # kept: the first unit has not sent yet
        order.append("first sends")
        turns.sending()
        other.join(5)
    assert order == ["first prepared", "first sends", "other"]


def test_a_kept_turn_passes_on_when_the_block_ends_without_sending():
    order: list[str] = []
    with turns.kept_until_sending():
        with turns.preparing(1.0):
            pass
        other = _prepare_in_thread(order, "other")
        other.join(0.2)
        assert other.is_alive()
    other.join(5)
    assert order == ["other"]


def test_a_kept_turn_never_holds_the_others_past_its_limit(monkeypatch):
    monkeypatch.setattr(turns, "KEEP_MAX_S", 0.1)
    order: list[str] = []
    release = threading.Event()

    def keeper() -> None:
        with turns.kept_until_sending():
            with turns.preparing(1.0):
                pass
            release.wait(10)  # never sends while the other waits

    holder = threading.Thread(target=keeper)
    holder.start()
    try:
        other = _prepare_in_thread(order, "other")
        other.join(5)
        assert order == ["other"]
    finally:
        release.set()
        holder.join(5)


def test_a_turn_in_use_is_waited_for_only_so_long():
    stuck = threading.Thread(target=turns._TURN.acquire, args=(1.0,))  # never lets go
    stuck.start()
    stuck.join()
    with turns.preparing(0.05) as got:
        assert not got  # the block runs anyway, without the turn


def test_sending_outside_a_kept_block_changes_nothing():
    order: list[str] = []
    turns.sending()
    with turns.preparing(1.0):
        pass
    _prepare_in_thread(order, "other").join(5)
    assert order == ["other"]


def test_units_prepare_in_the_order_they_started(monkeypatch):
    monkeypatch.setattr(turns, "_ORDER", turns._Order())
    tickets = [turns.take_ticket() for _ in range(3)]
    order: list[int] = []
    gates = [threading.Event() for _ in tickets]

    def unit(ticket: int) -> None:
        with turns.in_order(ticket):
            gates[ticket].wait(10)
            with turns.preparing(5.0):
                order.append(ticket)

    threads = [threading.Thread(target=unit, args=(t,)) for t in reversed(tickets)]
    for thread in threads:
        thread.start()
    for gate in reversed(gates):  # the last started is ready first
        gate.set()
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2]


def test_a_unit_that_never_prepares_frees_its_place_when_it_ends(monkeypatch):
    monkeypatch.setattr(turns, "_ORDER", turns._Order())
    first, second = turns.take_ticket(), turns.take_ticket()
    with turns.in_order(first):
        pass  # a cached unit: nothing to prepare
    done = threading.Event()

    def later() -> None:
        with turns.in_order(second), turns.preparing(5.0):
            done.set()

    thread = threading.Thread(target=later)
    thread.start()
    assert done.wait(turns.KEEP_MAX_S / 2)  # no wait for the order's time limit
    thread.join(5)


def test_waiting_for_an_earlier_unit_in_order_is_bounded(monkeypatch):
    monkeypatch.setattr(turns, "_ORDER", turns._Order())
    monkeypatch.setattr(turns, "KEEP_MAX_S", 0.1)
    turns.take_ticket()  # a unit that started first and never prepares nor ends
    late = turns.take_ticket()
    with turns.in_order(late), turns.preparing(5.0) as got:
        assert got
