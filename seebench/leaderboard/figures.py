"""Heatmaps of the pairwise posteriors and decisions (the paper's Fig. 5), PNG and SVG.

Figures are built with :class:`matplotlib.figure.Figure` and the Agg canvas directly, so no
pyplot state or GUI backend is involved. Rendered bytes are cached per report, so the HTML
page reuses the SVGs of the ``figures`` exporter instead of drawing them again.
"""

from __future__ import annotations

import io
import textwrap
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from seebench.stats.report import ComparisonReport

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

#: Figure names and captions; rows are model A, columns model B.
HEATMAPS = {
    "posterior_better": "P(A > B): row model A outperforms column model B",
    "posterior_equal": "P(A = B): row and column models are practically equivalent",
    "decisions": "Decisions at the threshold (row model A against column model B)",
}

#: Cells are annotated with their probability up to this many models.
ANNOTATE_UP_TO = 30

_DECISION_CODES = {"better": 0, "equal": 1, "worse": 2, "inconclusive": 3}
_DECISION_COLOURS = ("#1a9850", "#4575b4", "#d73027", "#e0e0e0")
_DECISION_LABELS = ("A better", "equivalent", "B better", "inconclusive")
_FONT_PT = 7
_RC: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "seebench",
    "font.size": _FONT_PT,
}
#: the matrix (and the colour bar beside it) is at least this tall, in inches
MIN_MATRIX_INCHES = 1.6
_CACHE: dict[int, dict[tuple[str, str], bytes]] = {}


def _figure(report: ComparisonReport, name: str):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    models = report.models
    k = len(models)
    # inches per matrix cell; a few models get bigger cells, so that the colour bar is tall
    # enough for its label (a 2-model bar was shorter than "posterior probability")
    cell = max(0.3, MIN_MATRIX_INCHES / k)
    label = 0.055 * max(len(m) for m in models) + 0.5  # inches for tick labels and axis title
    width = k * cell + label + 1.6
    # the title is wrapped to the figure's width and gets its own band above the matrix
    title = textwrap.wrap(HEATMAPS[name], width=max(20, int(width * 72 / (_FONT_PT * 0.55))))
    top = 0.2 + 0.16 * len(title)
    height = k * cell + label + top
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    fig.text(0.5, 1 - 0.08 / height, "\n".join(title), ha="center", va="top")
    ax = fig.add_axes((label / width, label / height, k * cell / width, k * cell / height))
    if name == "decisions":
        codes = np.vectorize(lambda d: _DECISION_CODES.get(d, -1))(report.decisions).astype(float)
        codes[codes < 0] = np.nan
        ax.imshow(codes, cmap=ListedColormap(_DECISION_COLOURS), vmin=-0.5, vmax=3.5)
        handles = [
            Patch(color=c, label=t)
            for c, t in zip(_DECISION_COLOURS, _DECISION_LABELS, strict=True)
        ]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    else:
        p = report.posteriors
        values = p.p_better if name == "posterior_better" else p.p_equal
        image = ax.imshow(values, cmap="viridis", vmin=0, vmax=1)
        colorbar_axes = fig.add_axes(
            ((label + k * cell + 0.2) / width, label / height, 0.15 / width, k * cell / height)
        )
        fig.colorbar(image, cax=colorbar_axes, label="posterior probability")
        if k <= ANNOTATE_UP_TO:
            _annotate(fig, ax, values)
    ax.set_xticks(range(k), labels=models, rotation=90)
    ax.set_yticks(range(k), labels=models)
    ax.set_xlabel("model B")
    ax.set_ylabel("model A")
    return fig


def _annotate(fig, ax, values: np.ndarray) -> None:
    """Write each off-diagonal probability into its cell.

    The labels are drawn as glyph outlines, one collection per distinct label, rather than
    as hundreds of text artists, which matplotlib lays out and renders one by one, slowly.
    """
    from matplotlib.collections import PathCollection
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath
    from matplotlib.transforms import Affine2D

    k = values.shape[0]
    font = FontProperties(size=max(3.5, min(7.0, 130 / k)))
    cells: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for i in range(k):
        for j in range(k):
            v = values[i, j]
            if i != j and not np.isnan(v):
                text = "1" if v >= 0.995 else f"{v:.2f}"[1:]
                cells.setdefault((text, "black" if v > 0.5 else "white"), []).append((j, i))
    points_to_pixels = Affine2D().scale(1 / 72) + fig.dpi_scale_trans
    for (text, colour), offsets in cells.items():
        outline = TextPath((0, 0), text, prop=font)
        box = outline.get_extents()
        centred = outline.transformed(
            Affine2D().translate(-(box.x0 + box.x1) / 2, -(box.y0 + box.y1) / 2)
        )
        # one collection per label: SVG then defines each outline once and reuses it
        ax.add_collection(
            PathCollection(
                [centred],
                offsets=offsets,
                offset_transform=ax.transData,
                transform=points_to_pixels,
                facecolors=colour,
                edgecolors="none",
            )
        )


def render(report: ComparisonReport, name: str, fmt: str) -> bytes:
    """One heatmap (a key of :data:`HEATMAPS`) as ``png`` or ``svg`` bytes."""
    cache = _CACHE.get(id(report))
    if cache is None:
        cache = _CACHE[id(report)] = {}
        weakref.finalize(report, _CACHE.pop, id(report), None)
    if (name, fmt) not in cache:
        import matplotlib

        with matplotlib.rc_context(_RC):
            fig = _figure(report, name)
            for each in ("png", "svg"):
                buffer = io.BytesIO()
                metadata = {"Date": None} if each == "svg" else {"Software": None}
                fig.savefig(buffer, format=each, dpi=120, metadata=metadata)
                cache[(name, each)] = buffer.getvalue()
    return cache[(name, fmt)]


def export_figures(report: ComparisonReport, out_dir: Path) -> list[Path]:
    """Posterior and decision heatmaps as ``<name>.png`` and ``<name>.svg``."""
    written = []
    for name in HEATMAPS:
        for fmt in ("png", "svg"):
            path = out_dir / f"{name}.{fmt}"
            path.write_bytes(render(report, name, fmt))
            written.append(path)
    return written
