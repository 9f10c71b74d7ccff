"""A player's rating over time as an inline SVG line chart drawn on the server (no script
library), for the history's player page and the site's profile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from markupsafe import Markup, escape

from pipeline.arrays.arrow_text import join_pieces
from pipeline.site.row_table import html_text

# The chart's own units: drawn 1:1 at about 400 px, so at 390 px (a phone) its 13-unit text is
# 12 px on screen, and at most LABELS labels fit side by side (style.css: svg.chart).
WIDTH, HEIGHT, PAD = 400, 220, 36
LABELS = 5  # a long history labels every few lists, so the labels never overlap


# The two axes, the same on both charts.
AXES = (
    f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD // 2}" y2="{HEIGHT - PAD}" '
    'class="axis"/>'
    f'<line x1="{PAD}" y1="{PAD // 2}" x2="{PAD}" y2="{HEIGHT - PAD}" class="axis"/>'
)


def rating_bounds(low: Any, high: Any) -> tuple[Any, Any]:
    """The rating axis of a chart whose ratings run from ``low`` to ``high``: their range with
    a tenth below and above (at least 20 points tall, so a flat line sits mid-chart). Whole
    numbers, or numpy arrays of them (a chart per player at once): the same integer steps."""
    span = np.maximum(high - low, 20)
    low = low - span // 10
    return low, low + span + span // 5


def rating_y(rating: Any, low: Any, high: Any) -> Any:
    """The y of ``rating`` on an axis from ``low`` to ``high`` (:func:`rating_bounds`), whole
    pixels (``rating - low`` is never negative: floor division is exact truncation)."""
    return HEIGHT - PAD - (rating - low) * (HEIGHT - 2 * PAD) // (high - low)


def _rating_axis(points: list[tuple[str, int]]) -> Callable[[int], int]:
    """The y of a rating on a chart of ``points`` (:func:`rating_bounds`)."""
    low, high = rating_bounds(min(r for _, r in points), max(r for _, r in points))
    low, high = int(low), int(high)

    def y(r: int) -> int:
        return int(rating_y(r, low, high))

    return y


def rating_chart(points: list[tuple[str, int]]) -> Markup:
    """An SVG line chart of (list month, rating), one dot per list, labelled; empty markup when
    there is nothing to draw. Whole-pixel coordinates: integers only."""
    if not points:
        return Markup("")
    y = _rating_axis(points)
    n = len(points)
    step = (WIDTH - 2 * PAD) // max(n - 1, 1)

    def x(i: int) -> int:
        return PAD + i * step if n > 1 else WIDTH // 2

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="rating over time, {escape(points[0][0])} to {escape(points[-1][0])}">',
        AXES,
    ]  # each dot carries its rating: no scale numbers to read off
    line = " ".join(f"{x(i)},{y(r)}" for i, (_, r) in enumerate(points))
    parts.append(f'<polyline points="{line}" class="line"/>')
    every = -(-n // LABELS)  # at most LABELS labelled dots, the last one always
    for i, (month, rating) in enumerate(points):
        parts.append(f'<circle cx="{x(i)}" cy="{y(rating)}" r="4" class="dot"/>')
        last = i == n - 1
        if not last and (i % every or n - 1 - i < every):  # never crowding the last label
            continue
        parts.append(f'<text x="{x(i)}" y="{y(rating) - 10}" text-anchor="middle">{rating}</text>')
        parts.append(
            f'<text x="{x(i)}" y="{HEIGHT - PAD + 18}" text-anchor="middle">{escape(month)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


MIN_LABEL_GAP = 64  # chart units between labelled dots (a month label is about 50 wide)


def _month_numbers(months: pa.Array) -> np.ndarray:
    """Each ``YYYY-MM`` as months since year 0: the chart's x is time, not the rows' order."""
    year = pc.cast(pc.utf8_slice_codeunits(months, 0, 4), pa.int64())
    month = pc.cast(pc.utf8_slice_codeunits(months, 5, 7), pa.int64())
    return (year.to_numpy() * 12 + month.to_numpy() - 1).astype(np.int64)


def _labelled(xs: np.ndarray, ends: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Which dots carry labels: chosen from each chart's newest dot back (the newest always),
    a dot labelled when it lies ``MIN_LABEL_GAP`` left of the last label placed, so labels
    never overlap. A step per place from the end, every chart at once."""
    labelled = np.zeros(len(xs), dtype=bool)
    shown = np.full(len(counts), np.iinfo(np.int64).max // 2)  # none placed yet: any gap fits
    for back in range(int(counts.max(initial=0))):
        charts = np.flatnonzero(counts > back)
        dots = ends[charts] - 1 - back
        room = shown[charts] - xs[dots] >= MIN_LABEL_GAP
        labelled[dots[room]] = True
        shown[charts[room]] = xs[dots[room]]
    return labelled


def _numbers(values: np.ndarray) -> pa.Array:
    return pc.cast(pa.array(values, pa.int64()), pa.string())


def step_charts(
    months: pa.Array,
    month_html: pa.Array,
    ratings: np.ndarray,
    counts: np.ndarray,
    untils: pa.Array,
) -> pa.Array:
    """SVG step charts of profiles' changes, one per player: the points of each (its first
    list month of each rating, oldest first) are ``counts`` consecutive ``months`` (and
    ``month_html``, the same escaped) and ``ratings``, each rating held flat until the next
    one and, when the player's ``untils`` is set (their last list), until then; x is time. A
    dot per change, labels chosen from the newest back so they never overlap
    (:func:`_labelled`). Made from the changes alone, so a player who did not play keeps the
    same chart (docs/web.md). Whole-pixel coordinates: integers only. A player without
    points: no chart (empty text)."""
    counts = np.asarray(counts, dtype=np.int64)
    drawn = counts > 0
    if not drawn.any():
        return pa.array([""] * len(counts), pa.string())
    ends = np.cumsum(counts)
    starts = ends - counts
    owners = np.repeat(np.arange(len(counts)), counts)
    ratings = np.asarray(ratings, dtype=np.int64)
    numbers = _month_numbers(months)
    # Per chart; a blank one's values are never shown, its indices only kept in range.
    firsts = np.minimum(starts, len(numbers) - 1)
    lasts = np.maximum(ends - 1, 0)
    low = np.zeros(len(counts), dtype=np.int64)
    high = np.zeros(len(counts), dtype=np.int64)
    low[drawn] = np.minimum.reduceat(ratings, starts[drawn])
    high[drawn] = np.maximum.reduceat(ratings, starts[drawn])
    low, high = rating_bounds(low, high)
    first, newest = numbers[firsts], numbers[lasts]
    until_set = pc.is_valid(untils).to_numpy(zero_copy_only=False)
    until = np.where(until_set, _month_numbers(pc.fill_null(untils, "0000-01")), first)
    end = np.maximum(until, newest)
    span = end - first
    later = until_set & (until > newest)  # flat on to the last list after the last change

    def x(chart: np.ndarray, number: np.ndarray) -> np.ndarray:
        wide = np.maximum(span[chart], 1)
        return np.where(span[chart] == 0, WIDTH // 2,
                        PAD + (number - first[chart]) * (WIDTH - 2 * PAD) // wide)  # fmt: skip

    xs = x(owners, numbers)
    ys = rating_y(ratings, low[owners], high[owners])
    labelled = _labelled(xs, ends, counts)
    x_text, y_text = _numbers(xs), _numbers(ys)
    month_text = month_html
    # A chart's first dot is where its path begins; the labels, only where there are any.
    opening = np.zeros(len(xs), dtype=bool)
    opening[starts[drawn]] = True
    steps = _placed(
        join_pieces(["H", x_text, "V", y_text]), opening,
        join_pieces(["M", _numbers(xs[opening]), ",", _numbers(ys[opening])]),
    )  # fmt: skip
    shown = pa.array(labelled)
    label = join_pieces([
        '<text x="', x_text.filter(shown), '" y="', _numbers(ys[labelled] - 10),
        '" text-anchor="middle">', _numbers(ratings[labelled]), '</text><text x="',
        x_text.filter(shown), f'" y="{HEIGHT - PAD + 18}" text-anchor="middle">',
        month_text.filter(shown), "</text>"])  # fmt: skip
    dots = join_pieces([
        '<circle cx="', x_text, '" cy="', y_text, '" r="4" class="dot"/>',
        _placed(pc.fill_null(pa.nulls(len(xs), pa.string()), ""), labelled, label),
    ])  # fmt: skip
    charts = np.arange(len(counts))
    flat_to = join_pieces(["H", _numbers(x(charts, until))])
    flat = pc.if_else(pa.array(later), flat_to, "")
    begin = month_text.take(pa.array(firsts))
    finish = pc.if_else(pa.array(later), html_text(pc.fill_null(untils, "")),
                        month_text.take(pa.array(lasts)))  # fmt: skip
    svg = join_pieces([
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-label="rating over time, ', begin, " to ", finish, '">', AXES, '<path d="',
        _per_chart(steps, counts), flat, '" class="line"/>', _per_chart(dots, counts),
        "</svg>"])  # fmt: skip
    return pc.if_else(pa.array(drawn), svg, "")


def _placed(values: pa.Array, mask: np.ndarray, others: pa.Array) -> pa.Array:
    """``values`` with ``others`` (one for each true of ``mask``) in their places."""
    return pc.replace_with_mask(values, pa.array(mask), others)


def _per_chart(values: pa.Array, counts: np.ndarray) -> pa.Array:
    """Each chart's values (``counts`` consecutive ones) joined into one text."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    return pc.binary_join(pa.ListArray.from_arrays(pa.array(offsets), values), "")
