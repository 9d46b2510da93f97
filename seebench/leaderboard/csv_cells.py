"""CSV cells that a spreadsheet opens as text, never as a formula: the helpers live in
:mod:`seebench.csv_files` (every CSV seebench writes uses them); re-exported here."""

from __future__ import annotations

from seebench.csv_files import safe_cell, safe_record, safe_row

__all__ = ["safe_cell", "safe_record", "safe_row"]
