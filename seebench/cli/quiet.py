"""Keep third-party libraries' progress bars and start-up chatter out of seebench's output.

``seebench eval`` draws its own progress (or none, with ``--no-progress``); the libraries it
loads models with draw theirs through tqdm (a GGUF conversion, "Loading weights", "Writing
model shards"), which in a log file become hundreds of carriage-return frames, and DeepSpeed
warns at import that it fell back to the CPU, which says nothing on a CPU machine.
"""

from __future__ import annotations

import logging
import os
import sys

#: Environment variables that turn the libraries' progress bars off (tqdm's defaults, read by
#: every tqdm bar since tqdm 4.66; the Hugging Face Hub's downloads).
BAR_SWITCHES = {"TQDM_DISABLE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1"}


class _DropCpuFallback(logging.Filter):
    """Drops DeepSpeed's 'Setting accelerator to CPU' warning (it names no problem)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Setting accelerator to CPU")


def quiet_libraries(progress: bool) -> None:
    """Silence third-party bars unless ``progress`` and standard error is a terminal; drop
    DeepSpeed's CPU fallback warning. A variable the user set is left as it is."""
    if not progress or not sys.stderr.isatty():
        for name, value in BAR_SWITCHES.items():
            os.environ.setdefault(name, value)
        _turn_off_loaded_bars()
    deepspeed = logging.getLogger("DeepSpeed")
    if not any(isinstance(f, _DropCpuFallback) for f in deepspeed.filters):
        deepspeed.addFilter(_DropCpuFallback())


def _turn_off_loaded_bars() -> None:
    """tqdm reads its variables when imported: a library loaded already is told directly."""
    if "huggingface_hub" in sys.modules:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()
    if "transformers" in sys.modules:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
