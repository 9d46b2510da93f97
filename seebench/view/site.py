"""The viewer's pages, rendered the same way for the server and for the static export.

Every page lives at a path relative to the site's root (``index.html``,
``unit/<uid>/page-<n>.html``, ``unit/<uid>/sample-<line>.html``,
``compare/<uid a>/<uid b>/page-<n>.html``, ``leaderboard.html``) and links only relatively,
so an exported folder opens from ``file://``. Pages are Jinja2 templates with autoescape on:
results are data, never markup. The one script is inline and allowed by its hash in the
page's Content-Security-Policy, which forbids loading anything from anywhere.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import numpy as np
from markupsafe import Markup

from seebench.errors import SeebenchError
from seebench.view import render
from seebench.view.catalog import Catalog, Unit
from seebench.view.compare import Pairing, pair
from seebench.view.index import (
    DAMAGED,
    WRONG,
    SampleFilter,
    SampleIndex,
    load_index,
    read_records,
    select,
)
from seebench.view.inputs import InputLookup, search_hashes
from seebench.view.rows import reliability, run_row, unit_summary, unscored
from seebench.view.safety import Refused, inside, read_bytes
from seebench.view.table import short, sort_links, table_rows

if TYPE_CHECKING:
    from seebench.registry import Registry

_log = logging.getLogger(__name__)

PAGE_SIZE = 20
#: Characters of each sample's text the export's table searches, and the budget of them all.
TABLE_TEXT_CHARS, TABLE_TEXT_BUDGET = 4_000, 48_000_000
COMPARE_PAGE_SIZE = 50
#: Characters of one value shown in a page listing / on a sample's own page.
LIST_LIMIT, SAMPLE_LIMIT = 4_000, 1_000_000
#: A line larger than this is listed without parsing (open the sample to see it).
MAX_LIST_LINE_BYTES = 4 * 1024 * 1024
MAX_SAMPLE_LINE_BYTES = 64 * 1024 * 1024

#: The one script of every page (the runs filters; an exported unit's search, filters and
#: order), allowed by its hash.
SCRIPT = (resources.files("seebench.view") / "templates" / "site.js").read_text("utf-8")
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
#: Nothing loads from anywhere; only the page's own styles and its one script run.
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    f"script-src 'sha256-{_SCRIPT_HASH}'; base-uri 'none'; form-action 'self'"
)


@dataclass
class ExportArtifact:
    """An artifact the static export copies: from ``source`` to ``target`` (site-relative)."""

    source: Path
    base: Path
    target: str


class Site:
    """Renders every page from a :class:`Catalog`; ``mode`` is ``"serve"`` or ``"export"``."""

    def __init__(
        self,
        catalog: Catalog,
        registry: Registry | None = None,
        mode: str = "serve",
        csv_inputs: tuple[Path, ...] = (),
        groups: Any = None,
        inputs: InputLookup | None = None,
        board_job: Callable[..., dict[str, Any]] | None = None,
    ) -> None:
        import jinja2

        self.catalog = catalog
        self.registry = registry
        self.mode = mode
        self.csv_inputs = csv_inputs
        self.groups = groups  # a seebench.scoring.groups.GroupSet or None
        self.inputs = inputs or InputLookup()  # inputs the samples files do not hold
        #: a picklable ``(units, csv inputs, groups) -> leaderboard context`` that builds its
        #: own registry, for computing the leaderboard in a process of its own
        self.board_job = board_job
        self.env = jinja2.Environment(
            loader=jinja2.PackageLoader("seebench.view", "templates"),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        self.env.filters["highlight"] = render.highlight
        self._indexes: OrderedDict[tuple, tuple[SampleIndex | None, str]] = OrderedDict()
        self._selections: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._pairings: OrderedDict[tuple, Pairing] = OrderedDict()
        self._report: tuple[Any, str | None] | None = None
        self._report_lock = threading.Lock()
        self._board: dict[str, Any] | None = None  # the leaderboard page's context, once made
        self._warming: threading.Thread | None = None
        self.export_artifacts: dict[str, ExportArtifact] = {}

    # -- shared -----------------------------------------------------------------------------

    def _page(self, template: str, root: str, title: str, **context: Any) -> str:
        return self.env.get_template(template).render(
            root=root,
            title=title,
            subtitle=", ".join(r.name for r in self.catalog.roots),
            csp=CSP,
            script=Markup(SCRIPT),
            fmt=render.fmt,
            **context,
        )

    def index_of(self, unit: Unit) -> tuple[SampleIndex | None, str]:
        """The unit's samples index (``None`` with the reason when there is none); the last
        few are kept in memory."""
        key = (unit.uid, unit.signature)
        if key in self._indexes:
            self._indexes.move_to_end(key)
            return self._indexes[key]
        samples = unit.samples_path
        found: tuple[SampleIndex | None, str]
        if samples is None:
            found = (None, "no samples file")
        else:
            try:
                found = (load_index(samples, unit.root)[0], "")
            except Refused as exc:
                found = (None, f"samples file {samples.name}: {exc}")
        self._indexes[key] = found
        while len(self._indexes) > 8:
            self._indexes.popitem(last=False)
        return found

    def sample_href(self, unit: Unit, line: int, root: str, qs: str = "") -> str:
        """A sample's page (the server's; in the export, its card on its listing page);
        ``qs`` keeps the list's search, filters and order for the sample's prev/next."""
        if self.mode == "export":
            return f"{root}unit/{unit.uid}/page-{line // PAGE_SIZE + 1}.html#sample-{line}"
        return f"{root}unit/{unit.uid}/sample-{line}.html{qs}"

    def _artifact_href(self, unit: Unit, item: render.ArtifactFile, base: Path) -> str:
        if self.mode == "export":
            key = hashlib.sha256(item.name.encode()).hexdigest()[:16]
            target = f"unit/{unit.uid}/a-{key}.txt"
            if item.path is not None:
                self.export_artifacts[target] = ExportArtifact(item.path, base, target)
            return f"a-{key}.txt"
        return f"artifact.txt?path={quote(item.name)}"

    # -- runs -------------------------------------------------------------------------------

    def runs_page(self) -> str:
        units = self.catalog.list()
        rows = [run_row(u) for u in units]
        return self._page(
            "runs.html",
            "",
            "Runs",
            units=units,
            rows=rows,
            roots=[r.name for r in self.catalog.roots],  # names only: an export is published
            damaged=sum(1 for u in units if u.problem),
            suites=sorted({r["suite"] for r in rows if r["suite"]}),
            models=sorted({r["model"] for r in rows}),
            statuses=sorted({r["status"] for r in rows}),
            groups=self.group_rows(units),
        )

    def group_rows(self, units: list[Unit]) -> list[Any]:
        """The task-group rows of every model (empty without declared groups)."""
        if self.groups is None:
            return []
        from seebench.scoring.groups import group_scores

        by_model: dict[str, dict[str, dict[str, Any]]] = {}
        for unit in units:
            if unit.result is not None and unit.result.get("status") == "ok":
                by_model.setdefault(unit.label, {})[unit.task] = unit.result
        rows = []
        for model, results in sorted(by_model.items()):
            for row in group_scores(self.groups, results):
                rows.append({"model": model, **row.as_dict()})
        return rows

    # -- one task ---------------------------------------------------------------------------

    def task_page(self, task: str) -> str:
        """Every unit of ``task`` (the page the leaderboard of ``compare --view-site`` links)."""
        units = [u for u in self.catalog.list() if u.task == task]
        rows = []
        for unit in units:
            row = run_row(unit)
            row["peers"] = [u for u in units if u.uid != unit.uid]
            rows.append(row)
        return self._page("task.html", "../", task, task=task, units=units, rows=rows)

    # -- one unit ---------------------------------------------------------------------------

    def unit_page(
        self, uid: str, page: int = 1, wanted: SampleFilter | None = None, qs: str = ""
    ) -> str | None:
        unit = self.catalog.get(uid)
        if unit is None:
            return None
        wanted = wanted or SampleFilter()
        index, note = self.index_of(unit)
        context: dict[str, Any] = {
            "unit": unit,
            "summary": unit_summary(unit),
            "unscored": unscored(unit),
            "reliability": reliability(unit),
            "peers": self.catalog.peers(unit),
            "index_note": note,
            "filterable": index is not None,
            "export": self.mode == "export",
            "sorts": sort_links(wanted, sorted(index.scorers) if index is not None else []),
            "task_href": f"task/{unit.task}.html" if render.TASK_NAME.match(unit.task) else "",
            "f": wanted,
            "labels": gold_labels(index)[:200] if index is not None else [],
            "scorer_names": sorted(index.scorers) if index is not None else [],
            "total": None,
            "qs": qs,
            "samples": [],
        }
        if index is not None:
            rows = self._select(unit, index, wanted)
            pages = max(1, math.ceil(len(rows) / PAGE_SIZE))
            page = min(max(1, page), pages)
            lines = [int(x) for x in rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]]
            context.update(
                total=len(rows),
                n=index.n,
                page=page,
                pages=pages,
                jump=sorted({1, pages, *range(max(1, page - 3), min(pages, page + 3) + 1)}),
                samples=self._samples(
                    unit, index, lines, LIST_LIMIT, MAX_LIST_LINE_BYTES, "../../", qs=qs
                ),
            )
        return self._page("unit.html", "../../", f"{unit.task} · {unit.label}", **context)

    def _select(self, unit: Unit, index: SampleIndex, wanted: SampleFilter) -> np.ndarray:
        key = (unit.uid, unit.signature, wanted)
        if key not in self._selections:
            samples = unit.samples_path
            assert samples is not None
            try:
                hits = self._input_hits(unit, index, wanted.query)
                rows = select(index, samples, unit.root, wanted, hits)
            except Refused:
                rows = np.zeros(0, dtype=np.int64)
            if wanted.query and self.inputs.pending(unit.task, _seed(unit)):
                return rows  # its inputs are still being read: search them again next time
            self._selections[key] = rows
            while len(self._selections) > 32:
                self._selections.popitem(last=False)
        return self._selections[key]

    def _input_hits(self, unit: Unit, index: SampleIndex, query: str) -> np.ndarray | None:
        """Lines whose looked-up input holds ``query`` (``None`` when every record holds its
        input, which the file search covers)."""
        if not query or index.meta.get("with_input", 0) >= index.n:
            return None
        table, _ = self.inputs.inputs(unit.task, _seed(unit))
        found = search_hashes(table, query)
        if not found:
            return None
        wanted = np.asarray([h.encode() for h in found])
        return np.flatnonzero(np.isin(index.hashes, wanted))

    def start_inputs(self) -> threading.Thread | None:
        """Read, in the background, the task data of every unit whose samples file does not
        hold its inputs (the server calls this as it starts)."""
        keys = []
        for unit in self.catalog.list():
            index, _ = self.index_of(unit)
            if index is not None and index.meta.get("with_input", 0) < index.n:
                keys.append((unit.task, _seed(unit)))
        return self.inputs.preload(keys)

    def input_of(self, unit: Unit, record: dict[str, Any]) -> tuple[Any, str]:
        """A record's input: its own, else the task data's by ``input_hash``, else ``None``
        with the reason (as ``(input, note)``; the note says where the input came from)."""
        if "input" in record:
            return record["input"], ""
        if "input_hash" not in record:
            return None, "no input and no input_hash in this record"
        value, problem = self.inputs.lookup(unit.task, _seed(unit), record["input_hash"])
        if problem:
            return None, problem
        return value, f"looked up by input_hash {str(record['input_hash'])[:40]} in the task's data"

    def _samples(
        self,
        unit: Unit,
        index: SampleIndex,
        lines: list[int],
        limit: int,
        max_line: int,
        root: str,
        full: bool = False,
        qs: str = "",
    ) -> list[dict[str, Any]]:
        samples = unit.samples_path
        assert samples is not None
        try:
            records = read_records(index, samples, unit.root, lines, max_line)
        except Refused as exc:
            return [{"line": line, "damaged": str(exc)} | _EMPTY for line in lines]
        out = []
        for line, record, size in records:
            view: dict[str, Any] = {
                "line": line,
                "href": self.sample_href(unit, line, root, qs),
                "id": _text_id(index.ids[line]),
                "repeat": int(index.repeats[line]) if index.repeats.any() else None,
                "score": None
                if np.isnan(index.score[line])
                else render.fmt(float(index.score[line])),
                "css": "bad" if index.flags[line] & WRONG else "good",
                "damaged": "",
                "fields": [],
                "scorers": [],
                "artifacts": [],
                "repeats": [],
                "short": {"input": "", "prediction": "", "gold": ""},
                "steps": self._steps(unit, index, line, root) if self.mode == "export" else {},
            }
            if record is None:
                view["damaged"] = (
                    "not a sample record"
                    if index.flags[line] & DAMAGED or size <= max_line
                    else f"{render.size_text(size)}: open the sample to see it"
                )
                view["css"] = "bad"
            else:
                view["fields"] = render.record_fields(record, limit)
                value, note = self.input_of(unit, record)
                if "input" not in record:
                    shown = render.value_view("" if value is None else value, limit, "input")
                    view["fields"].insert(0, {"key": "input", "value": shown, "note": note})
                view["short"] = {
                    "input": "" if value is None else short(value, 160),
                    "prediction": short(record.get("prediction"), 80),
                    "gold": short(record.get("gold"), 80),
                }
                view["scorers"] = render.scorer_views(record, limit)
                view["artifacts"] = self._artifacts(unit, record, limit)
                if full and view["repeat"] is not None:
                    same = np.flatnonzero(index.ids == index.ids[line])
                    view["repeats"] = [
                        {
                            "line": int(o),
                            "repeat": int(index.repeats[o]),
                            "score": render.fmt(float(index.score[o])),
                            "href": self.sample_href(unit, int(o), root),
                        }
                        for o in same[:100]
                        if o != line
                    ]
            out.append(view)
        return out

    def _artifacts(self, unit: Unit, record: dict[str, Any], limit: int) -> list[dict[str, Any]]:
        refs = render.artifact_refs(record)
        if not refs:
            return []
        base = unit.artifacts_path
        out = []
        for item in render.artifact_files(base, unit.root, refs):
            inline = None
            href = ""
            if not item.problem:
                try:
                    resolved_base = Path(inside(base, unit.root))
                except Refused as exc:
                    item.problem = str(exc)
                else:
                    inline = render.inline_artifact(item, resolved_base, limit)
                    href = self._artifact_href(unit, item, resolved_base)
            out.append(
                {
                    "name": item.name,
                    "size_text": render.size_text(item.size) if not item.problem else "",
                    "problem": item.problem,
                    "inline": inline,
                    "href": href,
                }
            )
        return out

    def table_page(self, uid: str) -> str | None:
        """The export's table of every sample of a unit, searched, filtered and sorted in the
        page by its script (the data is in the page: a static site has no server)."""
        unit = self.catalog.get(uid)
        if unit is None:
            return None
        index, _ = self.index_of(unit)
        if index is None:
            return None
        chars = max(200, min(TABLE_TEXT_CHARS, TABLE_TEXT_BUDGET // max(1, index.n)))
        data = {
            "page_size": PAGE_SIZE,
            "labels": index.labels,
            "scorers": sorted(index.scorers),
            "rows": list(table_rows(unit, index, chars, self.input_of)),
        }
        # "<" escaped: the data cannot close its <script> element
        text = json.dumps(data, ensure_ascii=False, allow_nan=False).replace("<", "\\u003c")
        return self._page(
            "table.html",
            "../../",
            f"{unit.task} · {unit.label}: every sample",
            unit=unit,
            data=Markup(text),
            text_chars=chars,
            labels=gold_labels(index)[:200],
            scorer_names=sorted(index.scorers),
            task_href=f"task/{unit.task}.html" if render.TASK_NAME.match(unit.task) else "",
        )

    def _steps(self, unit: Unit, index: SampleIndex, line: int, root: str) -> dict[str, str]:
        """The export's previous and next sample (file order; the server's sample page steps
        through the list it came from)."""
        steps = {}
        if line > 0:
            steps["prev"] = self.sample_href(unit, line - 1, root)
        if line + 1 < index.n:
            steps["next"] = self.sample_href(unit, line + 1, root)
        return steps

    def sample_page(
        self, uid: str, line: int, wanted: SampleFilter | None = None, qs: str = ""
    ) -> str | None:
        """One sample in full, with the previous and next one of the list it was opened
        from (``wanted``: its search, filters and order; file order without)."""
        unit = self.catalog.get(uid)
        if unit is None:
            return None
        index, _ = self.index_of(unit)
        if index is None or not 0 <= line < index.n:
            return None
        [sample] = self._samples(
            unit, index, [line], SAMPLE_LIMIT, MAX_SAMPLE_LINE_BYTES, "../../", full=True, qs=qs
        )
        rows = self._select(unit, index, wanted or SampleFilter())
        at = np.flatnonzero(rows == line)
        if not len(at):  # not in that list (a stale link): step through the file
            rows, qs, at = np.arange(index.n), "", np.asarray([line])
        position = int(at[0])
        step = {
            "position": position + 1,
            "total": len(rows),
            "prev": f"sample-{int(rows[position - 1])}.html{qs}" if position > 0 else "",
            "next": f"sample-{int(rows[position + 1])}.html{qs}"
            if position + 1 < len(rows)
            else "",
            "back": f"page-{position // PAGE_SIZE + 1}.html{qs}#sample-{line}",
        }
        return self._page(
            "sample.html",
            "../../",
            f"{unit.task} #{line + 1}",
            unit=unit,
            sample=sample,
            step=step,
        )

    def artifact_bytes(self, uid: str, name: str) -> bytes | None:
        """An artifact file's bytes (server only), if ``name`` lies in the unit's artifacts."""
        unit = self.catalog.get(uid)
        if unit is None:
            return None
        [item] = render.artifact_files(unit.artifacts_path, unit.root, [name])
        if item.problem or item.path is None:
            return None
        try:
            base = inside(unit.artifacts_path, unit.root)
            return read_bytes(item.path, base, 256 * 1024 * 1024)
        except Refused:
            return None

    # -- compare ----------------------------------------------------------------------------

    def compare_page(self, uid_a: str, uid_b: str, page: int = 1) -> str | None:
        a, b = self.catalog.get(uid_a), self.catalog.get(uid_b)
        if a is None or b is None:
            return None
        root = "../../../"
        context: dict[str, Any] = {"a": a, "b": b, "problem": "", "page": 1, "pages": 1}
        index_a, note_a = self.index_of(a)
        index_b, note_b = self.index_of(b)
        if a.task != b.task:
            context["problem"] = f"{a.task} and {b.task} are different tasks"
        elif index_a is None or index_b is None:
            context["problem"] = note_a or note_b
        else:
            assert index_a is not None and index_b is not None
            key = (a.uid, a.signature, b.uid, b.signature)
            if key not in self._pairings:
                self._pairings[key] = pair(index_a, index_b)
                while len(self._pairings) > 8:
                    self._pairings.popitem(last=False)
            pairing = self._pairings[key]
            stats = pairing.stats
            pages = max(1, math.ceil(len(pairing.lines_a) / COMPARE_PAGE_SIZE))
            page = min(max(1, page), pages)
            chunk = slice((page - 1) * COMPARE_PAGE_SIZE, page * COMPARE_PAGE_SIZE)
            context.update(
                page=page,
                pages=pages,
                stats={
                    "n": stats.n,
                    "disagree": stats.disagree,
                    "mean": stats.mean,
                    "ci": render.interval(list(stats.ci)) if stats.ci else "",
                    "only_a": stats.only_a,
                    "only_b": stats.only_b,
                },
                items=self._compare_items(a, b, index_a, index_b, pairing, chunk, root),
            )
        return self._page("compare.html", root, f"{a.task}: compare", **context)

    def _compare_items(self, a, b, index_a, index_b, pairing, chunk, root) -> list[dict[str, Any]]:
        lines_a = [int(x) for x in pairing.lines_a[chunk]]
        lines_b = [int(x) for x in pairing.lines_b[chunk]]
        records_a = read_records(index_a, a.samples_path, a.root, lines_a, MAX_LIST_LINE_BYTES)
        records_b = read_records(index_b, b.samples_path, b.root, lines_b, MAX_LIST_LINE_BYTES)
        items = []
        for (la, ra, _), (lb, rb, _), disagree in zip(
            records_a, records_b, pairing.disagree[chunk], strict=True
        ):
            ra, rb = ra or {}, rb or {}
            value, note = self.input_of(a, ra) if ra else (None, "")
            items.append(
                {
                    "id": _text_id(index_a.ids[la]),
                    "input": "" if value is None else short(value, 300),
                    "input_note": note if value is None else "",
                    "gold": short(ra.get("gold"), 600),
                    "pred_a": short(ra.get("prediction"), 600),
                    "pred_b": short(rb.get("prediction"), 600),
                    "score_a": render.fmt(_num(index_a.score[la])),
                    "score_b": render.fmt(_num(index_b.score[lb])),
                    "href_a": self.sample_href(a, la, root),
                    "href_b": self.sample_href(b, lb, root),
                    "disagree": bool(disagree),
                }
            )
        return items

    # -- leaderboard ------------------------------------------------------------------------

    def report(self) -> tuple[Any, str | None]:
        """The comparison report (computed once) or why there is none."""
        with self._report_lock:
            if self._report is None:
                from seebench.view.leaderboard import build_report, score_table

                try:
                    if self.registry is None:
                        raise SeebenchError("no plugin registry given")
                    table = score_table(self.catalog.list(), self.csv_inputs)
                    self._report = (build_report(table, self.registry), None)
                except SeebenchError as exc:
                    self._report = (None, str(exc))
            return self._report

    def board_context(self) -> dict[str, Any]:
        """What the leaderboard page shows (the report, its figures), made once."""
        if self._board is None:
            from seebench.view.leaderboard import leaderboard_context

            report, problem = self.report()
            context: dict[str, Any] = {"problem": problem or ""}
            if report is not None:
                context.update(leaderboard_context(report, self.catalog.list(), self.groups))
            self._board = context
        return self._board

    def start_leaderboard(self, own_process: bool = False) -> None:
        """Compute the leaderboard in the background (the server calls this as it starts): its
        posterior draws and figures take seconds, which no request should wait for. With
        ``own_process`` they run in a process of their own, so that their CPU time does not
        hold the interpreter lock the pages wait for."""
        if self._warming is None and self._board is None:
            target = self._board_in_process if own_process else self.board_context
            self._warming = threading.Thread(target=target, daemon=True)
            self._warming.start()

    def _board_in_process(self) -> None:
        from seebench.view.child import call_in_process

        if self.board_job is None:  # nothing to run elsewhere: compute it in this thread
            self.board_context()
            return
        units, csvs = self.catalog.list(), tuple(self.csv_inputs)
        try:
            self._board = call_in_process(self.board_job, units, csvs, self.groups)
        except Exception:  # cannot start a process here: compute it in this thread
            _log.warning("computing the leaderboard in the server's process", exc_info=True)
            self.board_context()

    def warm_up(self) -> None:
        """Compile every template (before serving: the first page must not pay for it)."""
        for name in self.env.list_templates(extensions=["html"]):
            self.env.get_template(name)

    def leaderboard_page(self) -> str:
        if self._warming is not None and self._warming.is_alive():
            return self._page(
                "leaderboard.html", "", "Leaderboard", computing=True, problem="", refresh=2
            )
        return self._page(
            "leaderboard.html", "", "Leaderboard", computing=False, **self.board_context()
        )


def gold_labels(index: SampleIndex) -> list[str]:
    """The labels the Label filter offers: those some sample has as its gold answer (a code
    task's predictions are short strings too, but they are answers, not labels)."""
    codes = np.unique(index.gold[index.gold >= 0])
    return [index.labels[int(c)] for c in codes]


_EMPTY: dict[str, Any] = {
    "fields": [],
    "scorers": [],
    "artifacts": [],
    "repeats": [],
    "id": "",
    "repeat": None,
    "score": None,
    "css": "bad",
    "href": "",
    "short": {"input": "", "prediction": "", "gold": ""},
    "steps": {},
}


def _seed(unit: Unit) -> int:
    run = unit.data.get("run")
    seed = run.get("seed") if isinstance(run, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else 42


def _num(value: Any) -> float | None:
    value = float(value)
    return None if math.isnan(value) else value


def _text_id(value: bytes) -> str:
    return bytes(value).decode("utf-8", "replace")
