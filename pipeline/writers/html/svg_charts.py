"""Charts for report.html written as SVG text from a template: no plotting library, no figure.

A chart is a few dozen lines, ticks and markers: formatting them as SVG elements takes tens of
microseconds, where drawing them with matplotlib took about a tenth of a second each (and a
second to import it); an event report draws a hundred (issue 13). The page stays one
self-contained file, sharp when printed, with text as text. The content is that of the
matplotlib charts before: the same series, colours, markers, axis labels, limits and ticks.
Only a dense scatter plot (more than ``RASTERIZE_ABOVE`` points) is still drawn by matplotlib,
as an embedded image, so a 100,000-player event stays a reasonable size.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

import numpy as np

RASTERIZE_ABOVE = 2_000  # points in one scatter plot
FONT = 'font-family="DejaVu Sans, Arial, sans-serif" font-size="12"'
AXIS_COLOUR = "#333"
ACTUAL_COLOUR = "#1f6fb2"
EXPECTED_COLOUR = "#d9822b"
GAIN_COLOUR = "#2a8a4a"
LOSS_COLOUR = "#c0392b"


def nice_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """At most ``most`` + 1 ticks within [low, high] on a step of 1, 2, 2.5 or 5 x 10^k."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / most
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    # Display only: strips float noise from chart tick positions (never a rating or a change);
    # formatting to 10 decimals is correctly rounded (the same value as Python rounding to 10).
    return [float(f"{i * step:.10f}") for i in range(first, last + 1)]


def tick_text(value: float) -> str:
    """A tick label: whole numbers without a decimal point, others as short as exact."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:g}"


def _tick(grid_path: str | None, tick_path: str, at: str, value: float) -> list[str]:
    """One tick of an axis: its grid line (if any), its mark and its label placed ``at``."""
    mark = (
        f'<path d="{tick_path}" stroke="{AXIS_COLOUR}" stroke-width="0.8"/>'
        f"<text {at}>{tick_text(value)}</text>"
    )
    return [mark] if grid_path is None else [_grid_line(grid_path), mark]


class Frame:
    """A plot area of ``width`` x ``height`` pixels with margins, mapping data to pixels."""

    def __init__(
        self,
        width: int,
        height: int,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        margins: tuple[int, int, int, int] = (52, 10, 10, 38),  # left, right, top, bottom
    ) -> None:
        self.width, self.height = width, height
        self.left, right, self.top, bottom = margins
        self.right = width - right
        self.bottom = height - bottom
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range

    def x(self, values: np.ndarray | Sequence[float]) -> np.ndarray:
        v = np.asarray(values, dtype=np.float64)
        return self.left + (v - self.x0) * (self.right - self.left) / (self.x1 - self.x0)

    def y(self, values: np.ndarray | Sequence[float]) -> np.ndarray:
        v = np.asarray(values, dtype=np.float64)
        return self.bottom - (v - self.y0) * (self.bottom - self.top) / (self.y1 - self.y0)

    def axes(
        self,
        x_ticks: Sequence[float],
        y_ticks: Sequence[float],
        x_label: str,
        y_label: str,
        grid: bool = False,
    ) -> list[str]:
        """Left and bottom axis lines (no top or right), ticks, labels and an optional grid."""
        parts = [
            f'<path d="M{self.left} {self.top}V{self.bottom}H{self.right}" fill="none" '
            f'stroke="{AXIS_COLOUR}" stroke-width="0.8"/>'
        ]
        for px, value in zip(self.x(x_ticks), x_ticks, strict=True):
            grid_path = f"M{px:.1f} {self.top}V{self.bottom}" if grid else None
            tick_path = f"M{px:.1f} {self.bottom}v4"
            at = f'x="{px:.1f}" y="{self.bottom + 16}" text-anchor="middle"'
            parts.extend(_tick(grid_path, tick_path, at, value))
        for py, value in zip(self.y(y_ticks), y_ticks, strict=True):
            grid_path = f"M{self.left} {py:.1f}H{self.right}" if grid else None
            tick_path = f"M{self.left} {py:.1f}h-4"
            at = f'x="{self.left - 6}" y="{py + 4:.1f}" text-anchor="end"'
            parts.extend(_tick(grid_path, tick_path, at, value))
        middle_x = (self.left + self.right) / 2
        middle_y = (self.top + self.bottom) / 2
        parts.append(
            f'<text x="{middle_x:.1f}" y="{self.height - 6}" text-anchor="middle">'
            f"{html.escape(x_label)}</text>"
            f'<text transform="translate(13 {middle_y:.1f}) rotate(-90)" text-anchor="middle">'
            f"{html.escape(y_label)}</text>"
        )
        return parts

    def svg(self, parts: list[str], title: str) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" {FONT} '
            f'role="img"><title>{html.escape(title)}</title>{"".join(parts)}</svg>'
        )


def _grid_line(d: str) -> str:
    return f'<path d="{d}" stroke="#b0b0b0" stroke-opacity="0.3" stroke-width="0.8"/>'


def _points(xs: np.ndarray, ys: np.ndarray) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs.tolist(), ys.tolist(), strict=True))


class ExpectedVsActual:
    """One player's cumulative expected and actual score, game by game (420 x 230 pixels).

    Kept as a context manager with an ``svg`` method, the interface the matplotlib version had;
    there is no figure to reuse or close any more.
    """

    width, height = 420, 230

    def svg(self, cum_expected: np.ndarray, cum_score: np.ndarray, salt: str = "") -> str:
        n = len(cum_score)
        x = np.arange(1, n + 1)
        top = max(float(np.max(cum_score, initial=0)), float(np.max(cum_expected, initial=0)), 1.0)
        frame = Frame(self.width, self.height, (0.5, n + 0.5), (0.0, top * 1.15))
        x_ticks = x if n <= 10 else np.unique(np.linspace(1, n, 6).round())
        parts = frame.axes(
            [float(t) for t in x_ticks],
            nice_ticks(0.0, top * 1.15),
            "rated game",
            "points (cumulative)",
        )
        px = frame.x(x)
        actual_y, expected_y = frame.y(cum_score), frame.y(cum_expected)
        parts.append(
            f'<polyline points="{_points(px, expected_y)}" fill="none" '
            f'stroke="{EXPECTED_COLOUR}" stroke-width="1.6" stroke-dasharray="5 3"/>'
        )
        parts.append(
            "".join(
                f'<rect x="{a - 2:.1f}" y="{b - 2:.1f}" width="4" height="4" '
                f'fill="{EXPECTED_COLOUR}"/>'
                for a, b in zip(px.tolist(), expected_y.tolist(), strict=True)
            )
        )
        parts.append(
            f'<polyline points="{_points(px, actual_y)}" fill="none" '
            f'stroke="{ACTUAL_COLOUR}" stroke-width="2.1"/>'
        )
        parts.append(
            "".join(
                f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2" fill="{ACTUAL_COLOUR}"/>'
                for a, b in zip(px.tolist(), actual_y.tolist(), strict=True)
            )
        )
        return frame.svg(parts, "actual and expected score, cumulative, game by game")

    def __enter__(self) -> ExpectedVsActual:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def changes_vs_rating_svg(rating: np.ndarray, change: np.ndarray, salt: str = "event") -> str:
    """The event: each rated player's exact rating change against the starting rating
    (750 x 340 pixels); a dense event is drawn by matplotlib as an embedded image."""
    rating = np.asarray(rating, dtype=np.float64)
    change = np.asarray(change, dtype=np.float64)
    if len(rating) > RASTERIZE_ABOVE:
        from pipeline.writers.html.scatter_chart import changes_vs_rating_svg as raster

        return raster(rating, change, salt)
    x_range = _padded(float(rating.min()), float(rating.max()))
    y_range = _padded(min(float(change.min()), 0.0), max(float(change.max()), 0.0))
    frame = Frame(750, 340, x_range, y_range)
    parts = frame.axes(
        nice_ticks(*x_range, most=8),
        nice_ticks(*y_range, most=6),
        "rating at the start of the period",
        "rating change (exact)",
        grid=True,
    )
    zero = float(frame.y([0.0])[0])
    parts.append(
        f'<path d="M{frame.left} {zero:.1f}H{frame.right}" stroke="#555" stroke-width="0.8"/>'
    )
    colours = np.where(change >= 0, GAIN_COLOUR, LOSS_COLOUR)
    parts.append(
        "".join(
            f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3" fill="{c}" fill-opacity="0.85"/>'
            for a, b, c in zip(
                frame.x(rating).tolist(), frame.y(change).tolist(), colours.tolist(), strict=True
            )
        )
    )
    return frame.svg(parts, "rating change against starting rating, one point per player")


def _padded(low: float, high: float) -> tuple[float, float]:
    """A data range with 5% of room on each side (as matplotlib's default margins)."""
    pad = (high - low) * 0.05 or 1.0
    return low - pad, high + pad
