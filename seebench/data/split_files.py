"""Published split files (``split: {split_file: ...}``): the file as a data source and the
split name of each prepared row. The pure splitting algorithms are in
:mod:`seebench.tasks.splits`."""

from __future__ import annotations

from typing import Any

from seebench.tasks.splits import DEFAULT_SPLIT_FILE_VALUES, split_file_assignment


def split_file_source(task: Any) -> Any:
    """The declared ``split.split_file`` of ``task`` as a data :class:`Source`, or ``None``."""
    from seebench.data.sources import Source

    spec = task.split.get("split_file")
    if not spec:
        return None
    return Source(
        task=task.name,
        index=-1,
        name=spec.get("name", "split_file"),
        format=spec.get("format", "csv"),
        url=spec.get("url"),
        sha256=spec.get("sha256"),
        path=(task.path.parent / spec["path"]) if spec.get("path") else None,
        options=dict(spec.get("options", {})),
        split=None,
        base_dir=task.path.parent,
    )


def read_split_file(task: Any, n_rows: int) -> list[str]:
    """Split name per prepared row from the task's split file (raises ``DataMissingError``
    when the file is not cached, ``ValueError`` when it does not fit the data)."""
    from seebench.data.readers import read_csv
    from seebench.data.sources import require_local

    source = split_file_source(task)
    spec = task.split["split_file"]
    path = require_local(source)
    rows = read_csv(path, **source.options)
    column = spec.get("column", "fold_1")
    where = f"task {task.name!r}: split file {source.file_name}"
    if rows and column not in rows[0]:
        raise ValueError(f"{where} has no column {column!r} (columns: {sorted(rows[0])})")
    if len(rows) != n_rows:
        raise ValueError(
            f"{where} has {len(rows)} rows but the prepared data has {n_rows}; "
            "it only fits the exact data version it was made for"
        )
    mapping = {str(k): v for k, v in spec.get("values", DEFAULT_SPLIT_FILE_VALUES).items()}
    return split_file_assignment([row[column] for row in rows], mapping, where)
