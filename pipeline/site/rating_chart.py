"""A player's rating over time as an inline SVG line chart drawn on the server (no script
library), for the history's player page and the site's profile."""

from __future__ import annotations

from markupsafe import Markup, escape

# The chart's own units: drawn 1:1 at about 400 px, so at 390 px (a phone) its 13-unit text is
# 12 px on screen, and at most LABELS labels fit side by side (style.css: svg.chart).
WIDTH, HEIGHT, PAD = 400, 220, 36
LABELS = 5  # a long history labels every few lists, so the labels never overlap


def rating_chart(points: list[tuple[str, int]]) -> Markup:
    """An SVG line chart of (list month, rating), one dot per list, labelled; empty markup when
    there is nothing to draw. Whole-pixel coordinates: integers only."""
    if not points:
        return Markup("")
    low = min(r for _, r in points)
    high = max(r for _, r in points)
    span = max(high - low, 20)
    low -= span // 10
    high = low + span + span // 5
    n = len(points)
    step = (WIDTH - 2 * PAD) // max(n - 1, 1)

    def x(i: int) -> int:
        return PAD + i * step if n > 1 else WIDTH // 2

    def y(r: int) -> int:
        return HEIGHT - PAD - (r - low) * (HEIGHT - 2 * PAD) // (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="rating over time, {escape(points[0][0])} to {escape(points[-1][0])}">',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD // 2}" y2="{HEIGHT - PAD}" '
        'class="axis"/>',
        f'<line x1="{PAD}" y1="{PAD // 2}" x2="{PAD}" y2="{HEIGHT - PAD}" class="axis"/>',
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
