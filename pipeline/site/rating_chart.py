"""A player's rating over time as an inline SVG line chart drawn on the server (no script
library), for the history's player page and the site's profile."""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup, escape

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


def _rating_axis(points: list[tuple[str, int]]) -> Callable[[int], int]:
    """The y of a rating on a chart of ``points``: their range with a tenth below and above
    (at least 20 points tall, so a flat line sits mid-chart), whole pixels."""
    low = min(r for _, r in points)
    high = max(r for _, r in points)
    span = max(high - low, 20)
    low -= span // 10
    high = low + span + span // 5

    def y(r: int) -> int:
        return HEIGHT - PAD - (r - low) * (HEIGHT - 2 * PAD) // (high - low)

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


def _month_number(month: str) -> int:
    """``YYYY-MM`` as months since year 0: the chart's x is time, not the rows' order."""
    return int(month[:4]) * 12 + int(month[5:7]) - 1


MIN_LABEL_GAP = 64  # chart units between labelled dots (a month label is about 50 wide)


def step_chart(points: list[tuple[str, int]], until: str | None) -> Markup:
    """An SVG step chart of a profile's changes: ``points`` (the first list month of each
    rating, oldest first), each rating held flat until the next one and, when ``until`` is
    given (the player's last list), until then; x is time. A dot per change, labels chosen
    from the newest back so they never overlap. Made from the changes alone, so a player who
    did not play keeps the same chart (docs/web.md). Whole-pixel coordinates: integers only."""
    if not points:
        return Markup("")
    y = _rating_axis(points)
    numbers = [_month_number(month) for month, _ in points]  # each month's x worked out once
    first = numbers[0]
    end = max(_month_number(until) if until else first, numbers[-1])
    months = end - first

    def x(number: int) -> int:
        if months == 0:
            return WIDTH // 2
        return PAD + (number - first) * (WIDTH - 2 * PAD) // months

    xs = [x(number) for number in numbers]
    ys = [y(rating) for _, rating in points]
    last = until if until and _month_number(until) > numbers[-1] else None
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="rating over time, {escape(points[0][0])} to '
        f'{escape(last or points[-1][0])}">',
        AXES,
    ]
    steps = [f"M{xs[0]},{ys[0]}"]
    steps += [f"H{xs[i]}V{ys[i]}" for i in range(1, len(points))]
    if last:
        steps.append(f"H{x(_month_number(last))}")
    parts.append(f'<path d="{"".join(steps)}" class="line"/>')
    labelled: set[int] = set()
    shown = None  # the x of the last label placed, the newest first: it is always labelled
    for i in range(len(points) - 1, -1, -1):
        if shown is None or shown - xs[i] >= MIN_LABEL_GAP:
            labelled.add(i)
            shown = xs[i]
    for i, (month, rating) in enumerate(points):
        parts.append(f'<circle cx="{xs[i]}" cy="{ys[i]}" r="4" class="dot"/>')
        if i in labelled:
            parts.append(
                f'<text x="{xs[i]}" y="{ys[i] - 10}" text-anchor="middle">{rating}</text>'
                f'<text x="{xs[i]}" y="{HEIGHT - PAD + 18}" text-anchor="middle">'
                f"{escape(month)}</text>"
            )
    parts.append("</svg>")
    return Markup("".join(parts))
