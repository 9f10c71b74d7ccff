"""Charts for report.html, drawn with matplotlib (Agg backend) as inline SVG.

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
from matplotlib.ticker import MaxNLocator  # noqa: E402

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


class ExpectedVsActual:
    """One player's cumulative expected and actual score, game by game.

    One figure is drawn once and reused for every player (only the data, limits and ticks
    change): creating a matplotlib figure costs more than saving it, and an event has many
    players. Use as a context manager so the figure is closed.
    """

    def __init__(self) -> None:
        with plt.rc_context(_STYLE):  # type: ignore[arg-type]
            self.fig, self.ax = plt.subplots(figsize=(4.2, 2.3))
            ax = self.ax
            (self.actual,) = ax.plot(
                [], [], marker="o", ms=3, lw=1.6, color="#1f6fb2", label="actual score"
            )
            (self.expected,) = ax.plot(
                [],
                [],
                marker="s",
                ms=3,
                lw=1.2,
                ls="--",
                color="#d9822b",
                label="expected (sum of PD)",
            )
            ax.set_xlabel("rated game")
            ax.set_ylabel("points (cumulative)")
            ax.yaxis.set_major_locator(MaxNLocator(5))
            # No matplotlib legend: it nearly doubles the drawing time of every chart. The page
            # prints the legend under each chart as HTML (see html.CHART_LEGEND).
            self.fig.tight_layout()

    def svg(self, cum_expected: np.ndarray, cum_score: np.ndarray, salt: str) -> str:
        x = np.arange(1, len(cum_score) + 1)
        self.actual.set_data(x, cum_score)
        self.expected.set_data(x, cum_expected)
        top = max(float(np.max(cum_score, initial=0)), float(np.max(cum_expected, initial=0)), 1.0)
        self.ax.set_xlim(0.5, len(x) + 0.5)
        self.ax.set_ylim(0, top * 1.15)
        self.ax.set_xticks(x if len(x) <= 10 else np.unique(np.linspace(1, len(x), 6).round()))
        with plt.rc_context(_STYLE):  # type: ignore[arg-type]
            return _svg(self.fig, salt, close=False)

    def __enter__(self) -> ExpectedVsActual:
        return self

    def __exit__(self, *exc: object) -> None:
        plt.close(self.fig)


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
