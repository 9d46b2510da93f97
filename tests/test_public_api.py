"""The names re-exported by ``seebench`` resolve."""

import pytest

import seebench


@pytest.mark.parametrize("name", seebench.__all__)
def test_public_name_resolves(name):
    assert getattr(seebench, name) is not None


def test_unknown_name_is_attribute_error():
    with pytest.raises(AttributeError):
        seebench.no_such_thing  # noqa: B018
