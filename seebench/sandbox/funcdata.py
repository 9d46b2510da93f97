"""numpy and pandas values as tagged plain data, for function-level tests in two processes.

A numpy array or scalar, or a pandas ``DataFrame``, ``Series`` or ``Index``, that crosses
between the candidate's process and the tests' process (see ``funcrun``) is sent as its
*data*: a dtype name, a shape and the elements as funcrun's own tagged JSON, and rebuilt on
the other side by numpy's and pandas' constructors from those plain values. Nothing of the
sender's object crosses: no pickle, no method of the sender's classes, no code. A value of a
kind not listed here (a masked array, a structured dtype, a ``MultiIndex``, a tz-aware
column, an object column holding something that is not plain data...) is not encoded here:
funcrun then hands the tests a handle to it, as to any other object (the fallback).

Forms (each a JSON list; ``V`` is one of the ``nd``/``pc``/``px`` values forms):

- ``["nd", dtype.str, shape, items]``: an ``ndarray`` of kind ``b i u f c U S M m O``
  (``M``/``m`` items are the int64 view; ``O`` items any plain value);
- ``["ns", nd]``: a numpy scalar (the 0-d array's one element);
- ``["pc", categories-index, codes-nd, ordered]``: a pandas ``Categorical``;
- ``["px", dtype name, items]``: another pandas extension array (``str``, ``Int64``,
  ``boolean``...), rebuilt by ``pandas.array(items, dtype=name)``;
- ``["pR", start, stop, step, name]`` and ``["pI", V, name]``: a ``RangeIndex``, an ``Index``;
- ``["pS", V, index, name]``: a ``Series``; ``["pD", columns, [V...], index]``: a ``DataFrame``;
- ``["NA", 0]``: ``pandas.NA``.

Like funcrun this file is loaded by path inside the sandbox; it imports numpy and pandas only
when a value needs them (the process that sent such a value has them).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

#: numpy dtype kinds sent as data; ``V`` (structured) and others stay handles
ARRAY_KINDS = frozenset("biufcUSMmO")
#: tags this module reads (funcrun hands every other tag to its own decoder)
TAGS = frozenset({"nd", "ns", "pc", "px", "pR", "pI", "pS", "pD", "NA"})
#: the most dimensions an array may declare, and the longest dtype name read
MAX_NDIM, MAX_NAME = 32, 200

Encoder = Callable[[object], object]
Decoder = Callable[[object], object]


class NotPlain(Exception):
    """Raised by the strict item encoder: the value holds something that is not plain data."""


def encode(value: object, item: Encoder) -> list | None:
    """``value``'s tagged form, or ``None`` when it is no numpy/pandas value this module
    sends as data. ``item`` encodes an element and raises :class:`NotPlain` when it cannot."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    kind = type(value)
    if kind is np.ndarray:
        return _encode_ndarray(np, value, item)
    if isinstance(value, np.generic) and kind.__module__ == "numpy":
        if value.dtype.kind not in ARRAY_KINDS or value.dtype.kind == "O":
            return None
        return ["ns", _encode_ndarray(np, np.asarray(value), item)]
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    return _encode_pandas(np, pd, value, item)


def _encode_ndarray(np, array, item: Encoder) -> list | None:
    dtype = array.dtype
    if dtype.kind not in ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        return None
    flat = array.reshape(-1)
    if dtype.kind in "Mm":
        items: list = flat.view("<i8").tolist()
    elif dtype.kind in "biuf":
        items = flat.tolist()
    else:
        items = [item(x) for x in (flat if dtype.kind == "O" else flat.tolist())]
    return ["nd", dtype.str, list(array.shape), items]


def _encode_pandas(np, pd, value: Any, item: Encoder) -> list | None:
    kind = type(value)
    if value is pd.NA:
        return ["NA", 0]
    if kind is pd.DataFrame:
        columns = [_encode_values(np, pd, value.iloc[:, i], item) for i in range(value.shape[1])]
        if any(c is None for c in columns):
            return None
        labels, index = (
            _encode_index(np, pd, value.columns, item),
            _encode_index(np, pd, value.index, item),
        )
        return None if labels is None or index is None else ["pD", labels, columns, index]
    if kind is pd.Series:
        values, index = (
            _encode_values(np, pd, value, item),
            _encode_index(np, pd, value.index, item),
        )
        return None if values is None or index is None else ["pS", values, index, item(value.name)]
    return _encode_index(np, pd, value, item)


def _encode_index(np, pd, index: Any, item: Encoder) -> list | None:
    kind = type(index)
    if kind is pd.RangeIndex:
        return ["pR", index.start, index.stop, index.step, item(index.name)]
    if kind not in (pd.Index, pd.DatetimeIndex, pd.TimedeltaIndex, pd.CategoricalIndex):
        return None  # a MultiIndex, a PeriodIndex, an IntervalIndex...: a handle
    values = _encode_values(np, pd, index, item)
    return None if values is None else ["pI", values, item(index.name)]


def _encode_values(np, pd, holder, item: Encoder) -> list | None:
    """The values of a Series or an Index (by its dtype)."""
    dtype = holder.dtype
    if isinstance(dtype, np.dtype):
        return _encode_ndarray(np, holder.to_numpy(), item)
    if isinstance(dtype, pd.CategoricalDtype):
        categories = _encode_index(np, pd, dtype.categories, item)
        codes = _encode_ndarray(np, np.asarray(holder.array.codes), item)
        if categories is None or codes is None:
            return None
        return ["pc", categories, codes, bool(dtype.ordered)]
    return ["px", str(dtype), [item(x) for x in holder.array]]


# -- rebuilding --------------------------------------------------------------------------------


def decode(data: list, item: Decoder) -> object:
    """The numpy/pandas value ``data`` (a list whose tag is in :data:`TAGS`) describes, built
    from its plain elements (``item`` decodes one). Raises ``ValueError`` on anything
    malformed (whatever numpy or pandas raised, as one line)."""
    try:
        return _decode(data, item)
    except ValueError:
        raise
    except Exception as error:
        raise ValueError(f"malformed {data[0]!r} value: {type(error).__name__}") from None


def _decode(data: list, item: Decoder) -> object:
    tag = data[0]
    if tag == "nd":
        return _decode_ndarray(data, item)
    if tag == "ns":
        _expect(data, 2)
        array = _decode_ndarray(data[1], item)
        if array.shape != () or array.dtype.kind == "O":
            raise ValueError("a numpy scalar must be a 0-d array of data")
        return array[()]
    import pandas as pd

    if tag == "NA":
        return pd.NA
    if tag in ("pR", "pI"):
        return _decode_index(pd, data, item)
    if tag == "pS":
        _expect(data, 4)
        index = _decode_index(pd, data[2], item)
        return pd.Series(_decode_values(pd, data[1], item), index=index, name=item(data[3]))
    if tag == "pD":
        return _decode_frame(pd, data, item)
    return _decode_values(pd, data, item)


def _expect(data: object, size: int) -> None:
    if type(data) is not list or len(data) != size:
        raise ValueError("malformed numpy/pandas value")


def _decode_ndarray(data: Any, item: Decoder):
    import numpy as np

    _expect(data, 4)
    _, name, shape, items = data  # type: ignore[misc]
    if data[0] != "nd" or type(name) is not str or len(name) > MAX_NAME:
        raise ValueError("malformed array")
    dtype = np.dtype(name)
    if dtype.kind not in ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise ValueError(f"array dtype {name!r} is not sent as data")
    if type(shape) is not list or len(shape) > MAX_NDIM or type(items) is not list:
        raise ValueError("malformed array shape")
    if any(type(n) is not int or n < 0 for n in shape) or math.prod(shape) != len(items):
        raise ValueError("array shape and items disagree")
    if dtype.kind in "Mm":
        if any(type(x) is not int for x in items):
            raise ValueError("malformed datetime items")
        return np.array(items, dtype="<i8").view(dtype).reshape(shape)
    values = [item(x) for x in items]
    if dtype.kind == "O":
        out = np.empty(len(values), dtype=object)
        for i, value in enumerate(values):
            out[i] = value
        return out.reshape(shape)
    allowed = {"b": (bool,), "i": (int,), "u": (int,), "f": (float, int), "c": (complex,),
               "U": (str,), "S": (bytes,)}[dtype.kind]  # fmt: skip
    if any(type(v) not in allowed for v in values):
        raise ValueError(f"array items do not fit dtype {name!r}")
    return np.array(values, dtype=dtype).reshape(shape)


def _decode_values(pd, data: Any, item: Decoder):
    if type(data) is not list or not data:
        raise ValueError("malformed pandas values")
    if data[0] == "nd":
        return _decode_ndarray(data, item)
    if data[0] == "pc":
        _expect(data, 4)
        categories = _decode_index(pd, data[1], item)
        codes = _decode_ndarray(data[2], item)
        if type(data[3]) is not bool or codes.dtype.kind != "i":
            raise ValueError("malformed categorical")
        return pd.Categorical.from_codes(codes, categories=categories, ordered=data[3])
    if data[0] == "px":
        _expect(data, 3)
        if type(data[1]) is not str or len(data[1]) > MAX_NAME or type(data[2]) is not list:
            raise ValueError("malformed extension array")
        return pd.array([item(x) for x in data[2]], dtype=pd.api.types.pandas_dtype(data[1]))
    raise ValueError("malformed pandas values")


def _decode_index(pd, data: Any, item: Decoder):
    if type(data) is list and data and data[0] == "pR":
        _expect(data, 5)
        if any(type(n) is not int for n in data[1:4]):
            raise ValueError("malformed range index")
        return pd.RangeIndex(data[1], data[2], data[3], name=item(data[4]))
    _expect(data, 3)
    if data[0] != "pI":  # type: ignore[index]
        raise ValueError("malformed index")
    values = _decode_values(pd, data[1], item)  # type: ignore[index]
    return pd.Index(values, dtype=values.dtype, name=item(data[2]))  # type: ignore[index]


def _decode_frame(pd, data: list, item: Decoder):
    _expect(data, 4)
    columns = _decode_index(pd, data[1], item)
    index = _decode_index(pd, data[3], item)
    if type(data[2]) is not list or len(data[2]) != len(columns):
        raise ValueError("a frame's columns and values disagree")
    arrays = [_decode_values(pd, values, item) for values in data[2]]
    if any(len(array) != len(index) for array in arrays):
        raise ValueError("a frame's column and its index disagree")
    frame = pd.DataFrame(dict(enumerate(arrays)), index=index)  # arrays: by position
    frame.columns = columns
    return frame
