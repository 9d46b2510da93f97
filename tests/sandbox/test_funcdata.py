"""numpy and pandas values cross the two-process function tests as plain data (``funcdata``):
rebuilt from their elements on the other side, a handle when they hold anything else, and
whatever a candidate sends in their forms is refused unless it is data."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from seebench.sandbox import FunctionTest, Limits, SandboxRequest, funcrun

#: numpy and pandas need more address space than the attack tests' tight limits give
ROOMY = Limits(cpu_s=10, wall_s=30, memory_mb=1024, processes=16, file_size_mb=4, disk_mb=16)


def handle(value: object) -> int:
    raise AssertionError(f"sent as a handle: {type(value).__name__}")


def across(value: object, handle_of=handle) -> object:
    """``value`` encoded, through JSON, and decoded as the other process does."""
    wire = json.loads(json.dumps(funcrun.encode(value, handle_of)))
    return funcrun.decode(wire, lambda number: ("handle", number))


def frame() -> pd.DataFrame:
    data = "age,color,dates,height\n1,blue,2019-03-06,2.72656\n20,green,2019-03-01,3.92785\n"
    df = pd.read_csv(io.StringIO(data))
    df["age"] = pd.cut(df["age"], bins=[0, 18, 100], labels=["young", "old"], right=False)
    df["dates"] = pd.to_datetime(df["dates"])
    return pd.concat([df, pd.get_dummies(df["color"])], axis=1)


@pytest.mark.parametrize(
    "array",
    [
        np.array([[1, 2], [3, 4]]),
        np.array([0.1 + 0.2, np.nan, np.inf], dtype=np.float32),
        np.array([1 + 2j]),
        np.array(["a", "bc"]),
        np.array([b"x"]),
        np.array([True, False]),
        np.array(["2019-03-06"], dtype="datetime64[ns]"),
        np.array([5], dtype="timedelta64[s]"),
        np.array([1, "a", None, (2, 3)], dtype=object),
        np.zeros((0, 3), dtype=np.uint8),
        np.arange(6)[::2],
    ],
)
def test_arrays_are_rebuilt_with_their_dtype_shape_and_values(array):
    rebuilt = across(array)
    assert type(rebuilt) is np.ndarray
    assert rebuilt.dtype == array.dtype and rebuilt.shape == array.shape
    assert all(
        (a is b) or (a == b) or (a != a and b != b)
        for a, b in zip(rebuilt.reshape(-1).tolist(), array.reshape(-1).tolist(), strict=True)
    )


def test_numpy_scalars_keep_their_type():
    for value in (np.float64(1.5), np.int8(-3), np.bool_(True), np.str_("s")):
        rebuilt = across(value)
        assert type(rebuilt) is type(value) and rebuilt == value


def test_frames_series_and_indexes_are_rebuilt_equal():
    df = frame()
    pd.testing.assert_frame_equal(across(df), df)
    series = pd.Series([1, None, 3], dtype="Int64", name="x", index=["a", "b", "c"])
    pd.testing.assert_series_equal(across(series), series)
    pd.testing.assert_index_equal(
        across(pd.RangeIndex(2, 9, 3, name="r")), pd.RangeIndex(2, 9, 3, name="r")
    )
    assert across(pd.NA) is pd.NA


def test_containers_of_arrays_cross_element_by_element():
    rebuilt = across({"k": [np.int64(3), np.array([1.0])]})
    assert type(rebuilt["k"][0]) is np.int64 and type(rebuilt["k"][1]) is np.ndarray


class Odd:
    """Not plain data."""


class AlwaysEqual(np.ndarray):
    def __eq__(self, other):
        return True


@pytest.mark.parametrize(
    "value",
    [
        np.array([Odd()], dtype=object),  # an element that is not data
        np.zeros(2).view(AlwaysEqual),  # a subclass (its __eq__ never crosses)
        np.zeros(1, dtype=[("a", "i4")]),  # a structured dtype
        pd.DataFrame({"a": [1]}, index=pd.MultiIndex.from_tuples([(1, 2)])),
        pd.Series([pd.Timestamp("2020-01-01", tz="UTC")]),
    ],
)
def test_what_is_not_data_falls_back_to_a_handle(value):
    numbers = []
    assert across(value, lambda v: numbers.append(v) or 7) == ("handle", 7)
    assert len(numbers) == 1 and numbers[0] is value


@pytest.mark.parametrize(
    "wire",
    [
        ["nd", "V8", [1], [1]],  # a dtype not sent as data
        ["nd", "<i8", [2], [1]],  # shape and items disagree
        ["nd", "<i8", [1], [["s", "1"]]],  # an item of the wrong type
        ["nd", "<M8[ns]", [1], [1.5]],
        ["nd", "not a dtype", [1], [1]],
        ["ns", ["nd", "|O", [], [1]]],  # an object scalar
        ["pS", ["nd", "<i8", [1], [1]], ["pR", 0, 2, 1, None], None],  # index length
        ["pD", ["pR", 0, 2, 1, None], [["nd", "<i8", [1], [1]]], ["pR", 0, 1, 1, None]],
        ["px", "no such dtype", [1]],
        ["pc", ["pR", 0, 1, 1, None], ["nd", "<i8", [1], [5]], False],  # code out of range
    ],
)
def test_malformed_forms_are_refused_as_value_errors(wire):
    with pytest.raises(ValueError):
        funcrun.decode(json.loads(json.dumps(wire)), lambda number: ("handle", number))


CANDIDATE = """
import numpy as np
import pandas as pd

def stats(values):
    return np.float64(np.mean(values)), np.asarray(values) * 2

def transform(df):
    df = df.copy()
    df["height"] = df["height"].round().astype(int)
    return df.drop(columns=["color"])

class Liar(np.ndarray):
    def __eq__(self, other):
        return np.ones(1, dtype=bool)

def liar():
    return np.zeros(1).view(Liar)
"""

TESTS = """
import io
import numpy as np
import pandas as pd

mean, doubled = stats(np.array([1, 2, 3]))
assert type(mean) is np.float64 and np.isclose(mean - 2.0, 0.0)
assert (doubled == np.array([2, 4, 6])).all()
df = pd.read_csv(io.StringIO("color,height\\nblue,2.7\\ngreen,3.2\\n"))
out = transform(df)
assert list(out.columns) == ["height"] and out["height"].tolist() == [3, 3]
assert list(df.columns) == ["color", "height"]  # the tests' frame is the tests' own
"""


def test_a_candidate_takes_and_returns_arrays_and_frames(sandbox):
    result = sandbox.run(SandboxRequest(program=FunctionTest(CANDIDATE, TESTS), limits=ROOMY))
    assert result.verdict == "passed", result.stderr


def test_an_array_subclass_of_the_candidate_equals_nothing(sandbox):
    tests = "import numpy as np\nassert liar() == np.ones(1)\n"
    result = sandbox.run(SandboxRequest(program=FunctionTest(CANDIDATE, tests), limits=ROOMY))
    assert result.verdict == "failed", result.stderr
