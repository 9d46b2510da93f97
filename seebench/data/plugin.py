"""Built-in data readers and preparation steps."""

from __future__ import annotations

from seebench.hookspecs import RegisterFunction, hookimpl

READERS = {
    "csv": "Comma-separated values (pandas.read_csv options).",
    "tsv": "Tab-separated values.",
    "json": "A JSON array of objects (gzip-compressed or not).",
    "jsonl": "JSON Lines, one object per line (gzip-compressed or not).",
    "xlsx": "An Excel sheet (openpyxl).",
    "parquet": "Apache Parquet (needs pyarrow).",
    "conll": "CoNLL-style token/tag lines, blank line between sentences.",
    "json_files": "A file set's JSON members (one object per file; 'pattern' globs the paths).",
}


@hookimpl
def register_data_readers(register: RegisterFunction) -> None:
    for name, description in READERS.items():
        register(name, f"seebench.data.readers:read_{name}", description=description)


@hookimpl
def register_prepare_steps(register: RegisterFunction) -> None:
    from seebench.data.prepare import STEP_SCHEMAS, STEPS

    for name, func in STEPS.items():
        register(
            name,
            func,
            description=(func.__doc__ or "").strip().splitlines()[0],
            schema=STEP_SCHEMAS[name],
        )
