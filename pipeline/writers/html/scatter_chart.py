"""The dense event scatter of report.html, drawn with matplotlib (Agg backend) as inline SVG
with the points rasterized. Every other chart is SVG from a template: see ``svg_charts``.

SVG keeps the page one self-contained file (no network, no image files) and sharp when printed.
Text stays text (``svg.fonttype: none``) so the files are small; each chart gets its own hash
salt so the ids inside the many SVGs of one page never collide. Dense scatter plots are
rasterized inside the SVG (an embedded PNG) so a 100,000-player event stays a reasonable size.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

RASTERIZE_ABOVE = 2_000  # points in one scatter plot
_STYLE = {
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 100,
}


def _svg(fig: plt.Figure, salt: str, close: bool = True) -> str:
    buffer = io.StringIO()
    with plt.rc_context({"svg.hashsalt": salt}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    if close:
        plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg") :]  # drop the XML prolog and doctype: it is inline


def changes_vs_rating_svg(rating: np.ndarray, change: np.ndarray, salt: str = "event") -> str:
    """The event: each rated player's exact rating change against the starting rating."""
    with plt.rc_context(_STYLE):  # type: ignore[arg-type]
        fig, ax = plt.subplots(figsize=(7.5, 3.4))
        dense = len(rating) > RASTERIZE_ABOVE
        colors = np.where(change >= 0, "#2a8a4a", "#c0392b")
        ax.scatter(
            rating,
            change,
            s=4 if dense else 18,
            c=colors,
            alpha=0.6 if dense else 0.85,
            linewidths=0,
            rasterized=dense,
        )
        ax.axhline(0, color="#555", lw=0.8)
        ax.set_xlabel("rating at the start of the period")
        ax.set_ylabel("rating change (exact)")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        return _svg(fig, salt)
