"""Strict YAML loading: duplicate keys are errors, ``include:`` files are merged.

PyYAML silently keeps the last of two equal keys. We compose the node tree first and walk it,
so every duplicate is reported with its key path and line numbers.

Task files come from plugins and users, so they are read as hostile input: before anything
recursive touches a document (libyaml's composer segfaults on ~30,000 nested brackets; the
key walk takes minutes on a "billion laughs" file), one flat pass over the parser's events
bounds the nesting depth (:data:`MAX_DEPTH`) and the number of nodes once every alias is
expanded (:data:`MAX_NODES`). Keys must be strings: a task document is JSON-like, hashed as
JSON and validated by a JSON Schema, whose objects only have string keys.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import json
import os
import stat as stat_module
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from seebench import safe_files
from seebench.errors import TaskSpecError


def format_path(parts: list[Any] | tuple[Any, ...]) -> str:
    """Render a key path such as ``data.sources[0].sha256`` (``<root>`` when empty)."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "<root>"


MAX_DEPTH = 50
#: The largest task file read (task files are a few KiB).
TASK_FILE_MAX_BYTES = 16 * 1024 * 1024
MAX_NODES = 100_000

_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_TAG_NAMES = {
    "bool": "a boolean",
    "int": "an integer",
    "float": "a number",
    "null": "null",
    "timestamp": "a date",
}


def check_bounds(text: str, file: str, loader: type | None = None) -> None:
    """Raise :class:`TaskSpecError` if ``text`` nests deeper than :data:`MAX_DEPTH` or its
    aliases expand to more than :data:`MAX_NODES` nodes. One pass over parser events, no
    recursion, stops at the first excess.

    The message does not depend on which parser runs: libyaml (PyYAML >= 6.0.4 bundles one
    that refuses 1,000 levels while scanning ahead) may stop on its own limit before an event
    reaches seebench's. Any syntax error from a fast parser is therefore checked again with
    PyYAML's pure-Python parser, which has no limit of its own, so a file nested too deep is
    always reported as such; a genuine syntax error is re-raised unchanged.
    """
    chosen = loader or _Loader
    try:
        _walk_events(text, file, chosen)
    except yaml.YAMLError:
        if chosen is yaml.SafeLoader:
            raise
        _walk_events(text, file, yaml.SafeLoader)  # raises seebench's own bound if exceeded
        raise


def _walk_events(text: str, file: str, loader: type) -> None:
    depth = 0
    expanded = 0
    frames: list[tuple[str | None, int]] = []  # (anchor, expanded nodes so far) per open collection
    sizes: dict[str, int] = {}  # anchor -> expanded nodes of the anchored node
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            size = sizes.get(event.anchor, 1)
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                line = event.start_mark.line + 1
                raise TaskSpecError(
                    file, [f"{file}:{line}: nested more than {MAX_DEPTH} levels deep"]
                )
            frames.append((event.anchor, expanded))
            size = 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            anchor, start = frames.pop()
            if anchor:
                sizes[anchor] = expanded - start + 1
            continue
        else:
            continue
        expanded += size
        if expanded > MAX_NODES:
            line = event.start_mark.line + 1
            raise TaskSpecError(
                file,
                [
                    f"{file}:{line}: aliases expand to more than {MAX_NODES:,} values "
                    "(an alias bomb?); write the values out or use include:"
                ],
            )


def _key_problem(key_node: yaml.Node) -> str | None:
    if isinstance(key_node, yaml.ScalarNode):
        if key_node.tag in (_STR_TAG, _MERGE_TAG):
            return None
        kind = _TAG_NAMES.get(key_node.tag.rsplit(":", 1)[-1], key_node.tag)
        return f"key {key_node.value!r} is {kind}, not a string; quote it ('{key_node.value}')"
    return "a key must be a string, not a list or a mapping"


def _duplicate_keys(
    node: yaml.Node, path: list[Any], problems: list[str], file: str, walked: set[int] | None = None
) -> None:
    walked = set() if walked is None else walked
    if id(node) in walked:  # an aliased node is checked once, however often it is used
        return
    walked.add(id(node))
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.tag)
            line = key_node.start_mark.line + 1
            key_problem = _key_problem(key_node)
            if key_problem:
                problems.append(f"{file}:{line}: {format_path(path)}: {key_problem}")
            if key in seen:
                problems.append(
                    f"{file}:{line}: {format_path([*path, key])}: duplicate key {key!r} "
                    f"(first defined at line {seen[key]})"
                )
            else:
                seen[key] = line
            _duplicate_keys(value_node, [*path, key], problems, file, walked)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _duplicate_keys(item, [*path, index], problems, file, walked)


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: ~10x faster


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` through libyaml when PyYAML has it (about 10x faster; the same
    values), for files seebench reads on every start (suites' task groups)."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader either way


def safe_dump(data: Any) -> str:
    """``yaml.safe_dump(data, sort_keys=False, allow_unicode=True)`` through libyaml when
    PyYAML has it (the same text, about 10x faster)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True)


def load_yaml_strict(path: Path) -> Any:
    """Parse one YAML file; raise :class:`TaskSpecError` on syntax errors or duplicate keys.

    Results are cached by (path, size, mtime), so a base file included by many tasks is
    parsed once; callers get a deep copy. Within :func:`shared_includes` (a task index
    build, which reads each file once) the file is parsed afresh and nothing is cached.
    """
    file = str(path)
    try:
        stat = path.stat()
    except OSError as exc:
        raise TaskSpecError(file, [f"{file}: cannot read file: {exc.strerror or exc}"]) from None
    if _memo is not None:  # a build reads each file once (a base through its memo): no copy
        return _load_cached.__wrapped__(file, stat.st_size, stat.st_mtime_ns)
    return _copy_document(_load_cached(file, stat.st_size, stat.st_mtime_ns))


def _kept_copy(document: dict[str, Any]) -> dict[str, Any] | str:
    """What a build keeps of a shared base to hand each includer a copy: the document as
    JSON when decoding that gives it back with the same values and types (strings, numbers,
    booleans, null, lists and mappings: nearly every base), about three times faster to copy
    than with :func:`_copy_document`; else a copy of the document itself (a date, say)."""
    try:
        text = json.dumps(document, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return _copy_document(document)
    if not _same_json(json.loads(text), document):
        return _copy_document(document)
    return text


def _same_json(decoded: Any, value: Any) -> bool:
    """``decoded == value`` with the types too (``1 == 1.0 == True`` in Python)."""
    if type(decoded) is not type(value):
        return False
    if isinstance(value, dict):
        return decoded.keys() == value.keys() and all(
            _same_json(decoded[key], item) for key, item in value.items()
        )
    if isinstance(value, list):
        return len(decoded) == len(value) and all(map(_same_json, decoded, value))
    return bool(decoded == value)


def _copy_document(value: Any) -> Any:
    """A deep copy of a loaded YAML value: mappings and lists are copied, scalars (str, numbers,
    booleans, null, dates, bytes) are immutable and shared. Several times faster than
    :func:`copy.deepcopy`, which a task index build would call once per file and include."""
    if isinstance(value, dict):
        return {key: _copy_document(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_document(item) for item in value]
    if isinstance(value, set):
        return set(value)
    if isinstance(value, (str, int, float, bool, bytes, type(None))):
        return value
    return copy.deepcopy(value)


try:  # libyaml's event parser, when available
    from yaml.cyaml import CParser as _Parser
except ImportError:  # pragma: no cover - PyYAML without libyaml
    _Parser = None
_SCALAR_CONSTRUCTORS = {
    tag: yaml.constructor.SafeConstructor.yaml_constructors[tag]
    for tag in (f"tag:yaml.org,2002:{name}" for name in _TAG_NAMES)
}
_NOT_PLAIN = object()


def _load_plain(text: str) -> Any:
    """The mapping of a plain YAML document, in one pass over libyaml's events; or
    :data:`_NOT_PLAIN` for anything else, which :func:`_load_cached`'s full path then reads.

    Plain: one document whose root is a mapping; no anchors, aliases or explicit tags; every
    key a string scalar used once per mapping; nested at most :data:`MAX_DEPTH` deep with at
    most :data:`MAX_NODES` nodes; every scalar of a type the safe loader builds. Such a file
    gives what the full path (bounds pass, composition, key walk, construction) gives, in
    about a third of the time: nearly every task file is plain, and a task index build reads
    thousands. Anything unusual, including every error, takes the full path and its messages.
    """
    if _Parser is None:
        return _NOT_PLAIN
    parser = _Parser(text)
    get = parser.get_event
    resolve = _resolver.resolve
    tags = _plain_tags
    scalar_node = yaml.ScalarNode
    root: dict[str, Any] = {}
    # one frame per open collection: [container, key awaiting its value (maps only)]
    frames: list[list[Any]] = []
    try:
        if type(get()) is not yaml.StreamStartEvent or type(get()) is not yaml.DocumentStartEvent:
            return _NOT_PLAIN
        event = get()
        if type(event) is not yaml.MappingStartEvent or event.anchor or event.tag:
            return _NOT_PLAIN
        frames.append([root, _NOT_PLAIN])
        nodes = 1
        while frames:
            event = get()
            kind = type(event)
            if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                frames.pop()
                continue
            if event.anchor is not None or getattr(event, "tag", None) is not None:
                return _NOT_PLAIN  # (an alias has an anchor: its name)
            opens = False
            is_string = False
            if kind is yaml.ScalarEvent:
                value = event.value
                if not event.implicit[0]:  # quoted or block style: a string
                    is_string = True
                else:  # plain style: the resolver decides its type (by the text alone)
                    tag = tags.get(value)
                    if tag is None:
                        tag = resolve(scalar_node, value, (True, False))
                        if len(tags) < _PLAIN_TAGS_MAX:
                            tags[value] = tag
                    if tag == _STR_TAG:
                        is_string = True
                    else:
                        construct = _SCALAR_CONSTRUCTORS.get(tag)
                        if construct is None:
                            return _NOT_PLAIN
                        value = construct(_constructor, scalar_node(tag, value))
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if len(frames) >= MAX_DEPTH:
                    return _NOT_PLAIN
                value = {} if kind is yaml.MappingStartEvent else []
                opens = True
            else:  # anything unexpected
                return _NOT_PLAIN
            nodes += 1
            if nodes > MAX_NODES:
                return _NOT_PLAIN
            frame = frames[-1]
            container = frame[0]
            if type(container) is list:
                container.append(value)
            elif frame[1] is _NOT_PLAIN:  # a key
                if not is_string or value in container:
                    return _NOT_PLAIN
                frame[1] = value
                continue
            else:
                container[frame[1]] = value
                frame[1] = _NOT_PLAIN
            if opens:
                frames.append([value, _NOT_PLAIN])
        if type(get()) is not yaml.DocumentEndEvent or type(get()) is not yaml.StreamEndEvent:
            return _NOT_PLAIN
    except Exception:  # a syntax error, a value the constructor refuses...: the full path
        return _NOT_PLAIN
    finally:
        parser.dispose()
    return root


_resolver = yaml.resolver.Resolver()
#: the tag the resolver gives each plain scalar's text (keys and common values repeat across
#: thousands of task files), up to this many texts
_PLAIN_TAGS_MAX = 20_000
_plain_tags: dict[str, str] = {}
_constructor = yaml.constructor.SafeConstructor()


@functools.lru_cache(maxsize=512)
def _load_cached(file: str, size: int, mtime_ns: int) -> Any:
    try:
        data = safe_files.read_bytes(file, TASK_FILE_MAX_BYTES)
        if _memo is not None:  # what the task index keeps to tell a changed file later
            _memo.digests[file] = hashlib.sha256(data).hexdigest()[:32]
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TaskSpecError(file, [f"{file}: cannot read file: {exc}"]) from None
    document = _load_plain(text)
    if document is not _NOT_PLAIN:
        return document
    try:
        check_bounds(text, file)
    except yaml.YAMLError as exc:
        raise TaskSpecError(file, [f"{file}: {_yaml_error_line(exc)}"]) from None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise TaskSpecError(file, [f"{file}: <root>: file is empty"])
        problems: list[str] = []
        _duplicate_keys(node, [], problems, file)
        if problems:
            raise TaskSpecError(file, problems)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise TaskSpecError(file, [f"{file}: {_yaml_error_line(exc)}"]) from None
    except (TypeError, ValueError, RecursionError) as exc:
        raise TaskSpecError(file, [f"{file}: invalid YAML value: {exc}"]) from None
    finally:
        loader.dispose()


def _yaml_error_line(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return f"YAML syntax error: {where}{problem}".replace("\n", " ")


def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Merge ``override`` into a copy of ``base``: dicts merge recursively, the rest replaces."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _includable(target: Path, folder: Path) -> bool:
    """An include must be a YAML file (links resolved) inside the including task's folder,
    seebench's own package or its shipped task definitions (``task_configs/``): never an
    arbitrary file whose content could reach a model."""
    memo = _memo
    if memo is not None:
        key = (str(target), str(folder))
        answer = memo.includable.get(key)
        if answer is None:
            answer = memo.includable[key] = _check_includable(target, folder, memo)
        return answer
    return _check_includable(target, folder, None)


def _check_includable(target: Path, folder: Path, memo: SharedIncludes | None) -> bool:
    import seebench
    from seebench.tasks.configs import task_configs_root

    if memo is None:
        if target.exists() and target.resolve().suffix not in (".yaml", ".yml"):
            return False
        return safe_files.inside(
            target, folder, Path(seebench.__file__).parent, task_configs_root()
        )
    try:
        real = memo.real(target)
    except (OSError, RuntimeError):  # a link loop
        return False
    if os.path.exists(real) and real.suffix not in (".yaml", ".yml"):
        return False
    roots = (folder, Path(seebench.__file__).parent, task_configs_root())
    try:
        return any(real.is_relative_to(memo.real(root)) for root in roots)
    except (OSError, RuntimeError):
        return False


class SharedIncludes:
    """What the task files of one index build share: real paths, include checks and each
    included base, merged and rebased, read once (see :func:`shared_includes`)."""

    def __init__(self) -> None:
        self.reals: dict[str, Path] = {}
        self.includable: dict[tuple[str, str], bool] = {}
        # (base file, including folder) -> (its merged, rebased document, or that document
        # as JSON when JSON gives it back unchanged (a faster copy); the files it read)
        self.bases: dict[tuple[str, str], tuple[dict[str, Any] | str, list[Path]]] = {}
        # file -> the digest of the bytes parsed (index_cache.content_digest)
        self.digests: dict[str, str] = {}

    def real(self, path: Path) -> Path:
        """``path.resolve()``, its folder resolved once per build: a file that is not a link
        is its resolved folder plus its name."""
        key = str(path)
        real = self.reals.get(key)
        if real is None:
            name = path.name
            parent = path.parent
            if name in ("", ".", "..") or parent == path:
                real = path.resolve()
            else:
                try:
                    is_link = stat_module.S_ISLNK(os.lstat(path).st_mode)
                except OSError:
                    is_link = False
                real = path.resolve() if is_link else self.real(parent) / name
            self.reals[key] = real
        return real


_memo: SharedIncludes | None = None


@contextlib.contextmanager
def shared_includes() -> Iterator[SharedIncludes]:
    """Within this block, :func:`load_task_document` reads an included base once for all
    the tasks that include it (from the same folder) and resolves each folder once: for a
    task index build, which reads thousands of tasks sharing a few bases. Only for a span
    in which the files do not change (a build; its cache distrusts files modified since)."""
    global _memo
    previous, _memo = _memo, SharedIncludes()
    try:
        yield _memo
    finally:
        _memo = previous


def load_task_document(
    path: Path, _stack: tuple[Path, ...] = (), files: list[Path] | None = None
) -> dict[str, Any]:
    """Load a task YAML and resolve its ``include:`` chain into one mapping.

    When ``files`` is given, every file the result depends on is appended to it (the task file,
    the files it includes, and an included file that was not found), even when loading fails:
    the task index keys its cache by them.
    """
    file = str(path)
    memo = _memo
    key = path.resolve() if memo is None else memo.real(path)
    if files is not None:
        files.append(path)
    if key in _stack:
        chain = " -> ".join(str(p) for p in (*_stack, key))
        raise TaskSpecError(file, [f"{file}: include: circular include ({chain})"])
    if not _stack and os.path.islink(path) and not _includable(path, path.parent):
        raise TaskSpecError(
            file,
            [
                f"{file}: the task file is a symbolic link to a file outside its folder (or not "
                f"a .yaml file); seebench reads only task files inside it"
            ],
        )
    document = load_yaml_strict(path)
    if not isinstance(document, dict):
        raise TaskSpecError(
            file, [f"{file}: <root>: expected a mapping, got {type(document).__name__}"]
        )
    includes = document.pop("include", None)
    if includes is None:
        return document
    if isinstance(includes, str):
        includes = [includes]
    if not isinstance(includes, list) or not all(isinstance(i, str) for i in includes):
        raise TaskSpecError(file, [f"{file}: include: expected a file name or a list of them"])
    merged: dict[str, Any] = {}
    for index, name in enumerate(includes):
        base_path = path.parent / name
        if not _includable(base_path, path.parent):
            where = "include" if len(includes) == 1 else f"include[{index}]"
            raise TaskSpecError(
                file,
                [
                    f"{file}: {where}: {name!r} is not a .yaml file inside the task's folder or "
                    f"seebench's shipped tasks; it is not read"
                ],
            )
        if not base_path.is_file():
            if files is not None:
                files.append(base_path)
            where = "include" if len(includes) == 1 else f"include[{index}]"
            raise TaskSpecError(file, [f"{file}: {where}: included file {name!r} not found"])
        shared = None if memo is None else memo.bases.get((str(base_path), str(path.parent)))
        if shared is None:
            read: list[Path] = []
            try:
                base = load_task_document(base_path, (*_stack, key), read)
            finally:
                if files is not None:
                    files += read
            rebased = rebase_paths(base, base_path.parent, path.parent)
            if memo is not None:  # a base that loads once loads for every includer
                memo.bases[(str(base_path), str(path.parent))] = (_kept_copy(rebased), read)
        else:
            kept = shared[0]
            rebased = json.loads(kept) if isinstance(kept, str) else _copy_document(kept)
            if files is not None:
                files += shared[1]
        merged = deep_merge(merged, rebased)
    return deep_merge(merged, document)


def rebase_paths(document: dict[str, Any], origin: Path, target: Path) -> dict[str, Any]:
    """Rewrite the relative file paths of an included document (``data.sources[*].path`` and
    ``files``, ``split.split_file.path``), written relative to the included file in
    ``origin``, so that they resolve from the including file's folder ``target``."""
    real = Path.resolve if _memo is None else _memo.real
    if real(origin) == real(target):
        return document

    def rebase(value: Any) -> Any:
        if not isinstance(value, str) or Path(value).is_absolute():
            return value
        return os.path.relpath((origin / value).resolve(), real(target))

    data = document.get("data")
    if isinstance(data, dict) and isinstance(data.get("sources"), list):
        sources = []
        for source in data["sources"]:
            if isinstance(source, dict):
                source = {k: rebase(v) if k in ("path", "files") else v for k, v in source.items()}
            sources.append(source)
        document = {**document, "data": {**data, "sources": sources}}
    split = document.get("split")
    if isinstance(split, dict) and isinstance(split.get("split_file"), dict):
        spec = split["split_file"]
        if "path" in spec:
            document = {
                **document,
                "split": {**split, "split_file": {**spec, "path": rebase(spec["path"])}},
            }
    return document
