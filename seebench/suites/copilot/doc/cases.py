"""The doc cases of the Copilot harness: one JSON per case (``doc/case-N/case-N.json``) beside the
whole source file it points into.

A case becomes a target record: the file with the focal function's own doc comment taken out
(the model must not see the answer), the function's 0-based line range in that file, its
indentation, its name, the function as the model sees it (dedented, without doc), and the
*oracle*: the same function with the doc comment the upstream file gave it (``None`` when the
file has none in the language's convention). A case whose function cannot be found at its
line range keeps an ``excluded`` reason and is left unscored, never dropped silently.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.suites.copilot.doc import trees
from seebench.suites.copilot.doc.comments import find_doc
from seebench.suites.copilot.doc.functions import function_name, scan_rows, spanning
from seebench.suites.copilot.doc.lines import split_lines, split_margin
from seebench.suites.copilot.languages import canonical_language, parser

if TYPE_CHECKING:
    import tree_sitter

CASE_JSON = re.compile(r"(?:^|/)(case-\d+)/\1\.json$")
#: the fence name of each language in prompts and answers
FENCE_NAMES = {
    "python": "python",
    "javascript": "javascript",
    "typescript": "typescript",
    "java": "java",
    "csharp": "csharp",
    "cpp": "cpp",
}


def _whole_lines(source: bytes, start: int, end: int) -> bool:
    """Whether bytes ``start..end`` fill their lines (only whitespace beside them)."""
    line_start = source.rfind(b"\n", 0, start) + 1
    line_end = source.find(b"\n", end)
    line_end = len(source) if line_end < 0 else line_end
    return not source[line_start:start].strip() and not source[end:line_end].strip()


def build_case(
    case: dict[str, Any],
    source: str,
    tree: tree_sitter.Tree | None = None,
    *,
    keep: bool = False,
    lines: list[str] | None = None,
) -> dict[str, Any]:
    """The target record of one case from its JSON and its file's text (see the module doc).

    ``tree`` is the parse of ``source`` when the caller has it (one parse per file, however
    many cases point into it); the file without the doc comment is re-parsed from it, only
    the removed lines. With ``keep`` that parse is kept for scoring (:mod:`.trees`).
    ``lines`` are ``source``'s lines (:func:`.split_lines`) when the caller has them."""
    from seebench.suites.copilot.doc.checks import reference_facts

    language = canonical_language(str(case["language"]))
    first, last = (int(n) for n in case["line_range"])
    record: dict[str, Any] = {
        "case_id": str(case["case_id"]),
        "language": language,
        "file_name": str(case["file_path"]),
        "line_range": [first, last],
        "excluded": None,
        "oracle": None,
    }
    data = source.encode("utf-8")
    if tree is None:
        tree = parser(language).parse(data)
    scan = scan_rows(tree.root_node, language, first, last)
    function = spanning(scan.functions, first, last)
    if function is None:
        return {**record, "excluded": f"no function spans lines {first + 1}-{last + 1}"}
    name = function_name(function, language)
    if lines is None:
        lines = split_lines(source)
    doc = find_doc(function, language, data)
    removed: tuple[int, int] | None = None
    if doc is not None:
        if not _whole_lines(data, doc.start_byte, doc.end_byte):
            return {**record, "excluded": "the doc comment shares its lines with code"}
        removed = (_row(data, doc.start_byte), _row(data, doc.end_byte))
    stripped = lines
    start, end = first, last
    if removed is not None:
        stripped = lines[: removed[0]] + lines[removed[1] + 1 :]
        count = removed[1] - removed[0] + 1
        if removed[0] < first:
            start, end = first - count, last - count
        else:
            end = last - count
    margin, function_lines = split_margin(stripped[start : end + 1])
    if removed is None:
        stripped_source, stripped_data, check = source, data, tree
    else:
        stripped_source = "\n".join(stripped)
        stripped_data = stripped_source.encode("utf-8")
        check = trees.reparse(language, data, tree, stripped_data)
    if keep:
        trees.keep(language, stripped_source, stripped_data, check)
    if removed is not None:
        scan = scan_rows(check.root_node, language, start, end)
    # without a doc to take out, the file is unchanged: the same function, the same rows
    again = function if removed is None else spanning(scan.functions, start, end)
    if again is None or function_name(again, language) != name:
        return {**record, "excluded": "the function without its doc comment does not parse"}
    if removed is not None:
        # the doc's lines, then the function's (decorators between them stay in the file)
        if removed[0] < first:
            oracle_rows = lines[removed[0] : removed[1] + 1] + lines[first : last + 1]
        else:
            oracle_rows = lines[first : last + 1]
        record["oracle"] = "\n".join(split_margin(oracle_rows)[1])
    return {
        **record,
        "file": stripped_source,
        "start": start,
        "end": end,
        "indent": margin,
        "name": name,
        "function": "\n".join(function_lines),
        "reference": reference_facts(
            check.root_node, again, language, stripped_data, start, end, scan.comments
        ),
    }


def _row(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset)


def prompt_input(record: dict[str, Any]) -> str:
    """What the model is shown: the focal function, then its whole file as context."""
    if record.get("excluded"):
        return f"(case {record['case_id']} excluded: {record['excluded']})"
    fence = FENCE_NAMES[record["language"]]
    return (
        f"\n```{fence}\n{record['function']}\n```\n\n"
        f"It is lines {record['start'] + 1}-{record['end'] + 1} of the file "
        f"{_base_name(record['file_name'])}, shown whole for context:\n"
        f"```{fence}\n{record['file']}\n```"
    )


def _base_name(path: str) -> str:
    """``PurePosixPath(path).name``, without building the path for a plain file name."""
    if "/" not in path and path != ".":
        return path
    return PurePosixPath(path).name


def _case_number(name: str) -> int:
    match = CASE_JSON.search(name)
    return int(match.group(1).split("-")[1]) if match else -1


def read_doc_cases(files: Any, *, language: str | None = None) -> list[dict[str, Any]]:
    """Rows ``{case_id, language, input, target}`` of the doc cases in a file set, in case
    order, only those in ``language`` when given. A case whose JSON or file is unusable is
    kept with an ``excluded`` reason naming it.

    The records are kept by content (:mod:`.prepared`) and read back on the next load.
    Otherwise each distinct source file (the data cache stores equal files once) is read and
    parsed once for all the cases that point into it, and the parse of each case's file
    without its doc is kept for scoring (:mod:`.trees`)."""
    from seebench.data.file_sets import FileSet
    from seebench.suites.copilot.doc import prepared

    if not isinstance(files, FileSet):
        raise ValueError("the copilot_doc reader reads a file set (a source with 'files:')")
    wanted = canonical_language(language) if language else None
    key = prepared.cache_key(files, wanted)
    records = prepared.load(key) if key else None
    if records is None:
        records = _prepare(files, wanted)
        if key:
            prepared.store(key, records)
    return [
        {
            "case_id": record["case_id"],
            "language": record["language"],
            "input": prompt_input(record),
            "target": record,
        }
        for record in records
    ]


def _prepare(files: Any, wanted: str | None) -> list[dict[str, Any]]:
    """The records of the cases in ``files`` (in ``wanted`` only, when given), in case order."""
    names = sorted((n for n in files if CASE_JSON.search(n)), key=_case_number)
    records: dict[str, dict[str, Any] | None] = {}
    by_file: dict[tuple[Any, str], list[tuple[str, dict[str, Any], str]]] = {}
    for name in names:
        read = _read_case_json(files, name, wanted)
        if isinstance(read, tuple):
            case, source_name, case_language = read
            by_file.setdefault((files[source_name], case_language), []).append(
                (name, case, source_name)
            )
        else:
            records[name] = read
    for (_, case_language), group in by_file.items():
        try:
            source = files.read_text(group[0][2])
            tree = parser(case_language).parse(source.encode("utf-8"))
        except (UnicodeDecodeError, SeebenchError) as exc:
            for name, _, _ in group:
                records[name] = _excluded(name, case_language, exc)
            continue
        lines = split_lines(source)
        for name, case, _ in group:
            try:
                records[name] = build_case(case, source, tree, keep=True, lines=lines)
            except (ValueError, KeyError, TypeError, SeebenchError) as exc:
                records[name] = _excluded(name, case_language, exc)
    return [record for name in names if (record := records.get(name)) is not None]


def _excluded(name: str, language: str, exc: Exception) -> dict[str, Any]:
    """The record of a case left unscored because of ``exc``, naming its JSON."""
    reason = str(exc) if isinstance(exc, SeebenchError) else f"{type(exc).__name__}: {exc}"
    return {
        "case_id": CASE_JSON.search(name).group(1),  # type: ignore[union-attr]
        "language": language,
        "file_name": name,
        "excluded": f"{name}: {reason}",
        "oracle": None,
    }


def _member(case_json: str, file_path: str) -> str:
    """The member name of ``file_path`` beside the member ``case_json``, as ``PurePosixPath``
    joins them (a plain file name by concatenation, anything else through it)."""
    folder, slash, _ = case_json.rpartition("/")
    plain = file_path not in ("", ".", "..") and "/" not in file_path
    if slash and plain and not {"", "."} & set(folder.split("/")):
        return f"{folder}/{file_path}"
    return str(PurePosixPath(case_json).parent / file_path)


def _read_case_json(
    files: Any, name: str, wanted: str | None
) -> tuple[dict[str, Any], str, str] | dict[str, Any] | None:
    """One case's JSON, its source file's member name and its language; ``None`` when it is
    in another language; the excluded record when it is unusable. A case whose language
    cannot be read is kept (excluded) in every language's task, so it is never lost."""
    language = "unknown"
    try:
        case = json.loads(files.read_text(name))
        if not isinstance(case, dict):
            raise ValueError("not a JSON object")
        language = canonical_language(str(case["language"]))
        if wanted and language != wanted:
            return None
        line_range = case["line_range"]
        if not (
            isinstance(line_range, list)
            and len(line_range) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in line_range)
            and line_range[0] <= line_range[1]
        ):
            raise ValueError(f"line_range {line_range!r} is not [first, last]")
        source_name = _member(name, str(case["file_path"]))
        if source_name not in files:
            raise ValueError(f"its file {case['file_path']!r} is not in the file set")
        return case, source_name, language
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, SeebenchError) as exc:
        return _excluded(name, language, exc)
