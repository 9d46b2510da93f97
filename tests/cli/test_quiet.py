"""Third-party progress bars stay out of a run without progress; DeepSpeed's CPU note too."""

from __future__ import annotations

import io
import logging
import subprocess
import sys

import pytest

from seebench.cli.quiet import BAR_SWITCHES, quiet_libraries


@pytest.fixture
def no_switches(monkeypatch):
    for name in BAR_SWITCHES:
        monkeypatch.delenv(name, raising=False)


BAR = """
import io, sys
from seebench.cli.quiet import quiet_libraries
if sys.argv[1] != "untouched":
    quiet_libraries(progress=sys.argv[1] == "progress")
import tqdm
out = io.StringIO()
for _ in tqdm.tqdm(range(3), desc="Loading weights", file=out):
    pass
print(len(out.getvalue()))
"""


@pytest.mark.parametrize(
    ("progress", "drawn"), [("no-progress", False), ("progress", False), ("untouched", True)]
)
def test_library_bars_are_off_without_progress_or_a_terminal(no_switches, progress, drawn):
    pytest.importorskip("tqdm")
    # a fresh interpreter, as the command line (tqdm reads its variables on import); its
    # standard error is a pipe here, not a terminal: no bars either way
    done = subprocess.run(
        [sys.executable, "-c", BAR, progress], capture_output=True, text=True, check=True
    )
    assert (int(done.stdout) > 0) is drawn


def test_a_loaded_library_is_told_directly(no_switches):
    hub = pytest.importorskip("huggingface_hub.utils")
    hub.enable_progress_bars()
    try:
        quiet_libraries(progress=False)
        assert hub.are_progress_bars_disabled()
    finally:
        hub.enable_progress_bars()


def test_a_variable_the_user_set_is_kept(no_switches, monkeypatch):
    monkeypatch.setenv("TQDM_DISABLE", "0")
    quiet_libraries(progress=False)
    import os

    assert os.environ["TQDM_DISABLE"] == "0"


def test_deepspeeds_cpu_fallback_warning_is_dropped_and_others_kept():
    quiet_libraries(progress=True)
    quiet_libraries(progress=True)  # once is enough: no second filter
    logger = logging.getLogger("DeepSpeed")
    assert len(logger.filters) == 1
    seen = io.StringIO()
    handler = logging.StreamHandler(seen)
    logger.addHandler(handler)
    try:
        logger.warning("Setting accelerator to CPU. If you have GPU or other accelerator, ...")
        logger.warning("something that matters")
    finally:
        logger.removeHandler(handler)
    assert seen.getvalue() == "something that matters\n"
