"""The sweep driver's scheduling: a unit that does not fit does not hold back those that do."""

from __future__ import annotations

from seebench.executors.local import LocalExecutor


class TwoInFlight(LocalExecutor):
    """The serial local executor allowed two units in flight (they still run one by one in
    ``wait``), recording the order in which the driver submits them."""

    def __init__(self, options):
        super().__init__(options)  # one worker: no process pool
        self.workers = 2
        self.submitted = []

    def submit(self, unit, attempts):
        self.submitted.append(unit.key)
        return super().submit(unit, attempts)


def test_a_unit_waiting_for_the_sandbox_lets_the_next_fitting_unit_start(sweep_env):
    executor = TwoInFlight(sweep_env.options(capacity={"cpu": 2, "sandbox": 1, "gpu": 0}))
    result = sweep_env.run(["xecho:sandbox-2", "xecho:plain-2"], executor)
    sandboxed = [f"xecho-sandbox-2/resource-echo/{t}" for t in ("alpha", "beta", "gamma")]
    plain = [f"xecho-plain-2/resource-echo/{t}" for t in ("alpha", "beta", "gamma")]
    # the second sandboxed unit cannot start beside the first: a plain one starts instead
    assert executor.submitted[:2] == [sandboxed[0], plain[0]]
    assert sorted(executor.submitted) == sorted(sandboxed + plain)
    assert executor.submitted.index(sandboxed[1]) < executor.submitted.index(sandboxed[2])
    # results keep the sweep's order whatever order the units ran in
    assert [f"{o.model_id}/resource-echo/{o.task}" for o in result.outcomes] == sandboxed + plain
    assert {o.status for o in result.outcomes} == {"ok"}


def test_units_that_all_fit_start_in_sweep_order(sweep_env):
    executor = TwoInFlight(sweep_env.options(capacity={"cpu": 2, "sandbox": 2, "gpu": 0}))
    sweep_env.run(["xecho:plain-3"], executor)
    assert executor.submitted == [
        f"xecho-plain-3/resource-echo/{t}" for t in ("alpha", "beta", "gamma")
    ]
