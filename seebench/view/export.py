"""``seebench view --export DIR``: the viewer's pages as a static site.

The same pages as the server, written as files with relative links, so the folder opens from
``file://`` or any static host: the runs table, the leaderboard, every unit's samples in pages
(each sample in full on its page) with a table of every sample that searches, filters and sorts in the page, the compare pages of every
two units of one task, and each sample's artifacts copied as ``.txt`` files (cut at
:data:`MAX_EXPORTED_ARTIFACT_BYTES`). Files are written atomically and never through a link.
"""

from __future__ import annotations

import math
from pathlib import Path

from seebench.errors import SeebenchError
from seebench.results.io import atomic_write_text
from seebench.view.render import TASK_NAME
from seebench.view.safety import Refused, read_bytes
from seebench.view.site import COMPARE_PAGE_SIZE, PAGE_SIZE, Site

MAX_EXPORTED_ARTIFACT_BYTES = 2 * 1024 * 1024


def export_site(site: Site, out_dir: Path) -> int:
    """Write every page of ``site`` under ``out_dir``; returns the number of files written."""
    out_dir = Path(out_dir)
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise SeebenchError(f"--export {out_dir}: not a folder (or a link)")
    for root in site.catalog.roots:
        resolved = out_dir.resolve()
        if resolved == root or root in resolved.parents:
            raise SeebenchError(f"--export {out_dir}: inside the results folder {root}")
    written = 0

    def write(rel: str, text: str) -> None:
        nonlocal written
        try:  # /proc/self/x, a full disk, a read-only folder: one line, not a traceback
            atomic_write_text(out_dir / rel, text)
        except SeebenchError:
            raise
        except OSError as exc:
            raise SeebenchError(
                f"--export {out_dir}: cannot write {rel}: {exc.strerror or exc}"
            ) from None
        written += 1

    write("index.html", site.runs_page())
    write("leaderboard.html", site.leaderboard_page())
    units = site.catalog.list()
    report, _ = site.report()
    ranked = set(report.matrix.tasks) if report is not None else set()
    # every task's page, those of the leaderboard too (compare --view-site links them all)
    for task in sorted({u.task for u in units} | ranked):
        if TASK_NAME.match(task):  # others (a hostile file name) get no page of their own
            write(f"task/{task}.html", site.task_page(task))
    for unit in units:
        index, _ = site.index_of(unit)
        pages = max(1, math.ceil(index.n / PAGE_SIZE)) if index is not None else 1
        for page in range(1, pages + 1):
            write(f"unit/{unit.uid}/page-{page}.html", site.unit_page(unit.uid, page) or "")
        if index is not None:
            write(f"unit/{unit.uid}/table.html", site.table_page(unit.uid) or "")
        for peer in site.catalog.peers(unit):
            peer_index, _ = site.index_of(peer)
            n = min(index.n, peer_index.n) if index is not None and peer_index is not None else 0
            for page in range(1, max(1, math.ceil(n / COMPARE_PAGE_SIZE)) + 1):
                text = site.compare_page(unit.uid, peer.uid, page) or ""
                write(f"compare/{unit.uid}/{peer.uid}/page-{page}.html", text)
    for target, item in sorted(site.export_artifacts.items()):
        try:
            data = read_bytes(item.source, item.base, MAX_EXPORTED_ARTIFACT_BYTES + 1)
        except Refused as exc:
            data = f"[not exported: {exc}]".encode()
        text = data[:MAX_EXPORTED_ARTIFACT_BYTES].decode("utf-8", errors="replace")
        if len(data) > MAX_EXPORTED_ARTIFACT_BYTES:
            text += f"\n[cut at {MAX_EXPORTED_ARTIFACT_BYTES} bytes; see the results folder]\n"
        write(target, text)
    return written
