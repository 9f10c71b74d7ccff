"""report.html: one self-contained page for an event (or one player): standings with rating
changes (sortable), a section per player with the game table and an expected-vs-actual chart, and
the event's rating changes against starting rating.

Self-contained means no network at all: CSS and the sorting script (report.css, report.js beside
this module) are inlined, charts are inline SVG (``pipeline.writers.html.svg_charts``). The page
is readable on a phone (tables scroll sideways, less important columns hide on narrow screens)
and when printed (no script controls, sections do not split across pages where avoidable).

Large events: the standings list every player; per-player sections are written for the first
``SECTIONS_MAX_PLAYERS`` players of the standings and per-player charts for the first
``CHARTS_MAX_PLAYERS``; the page says so.

One concept: the page report.html, its CSS and sorting script included (the charts are drawn by
``svg_charts``, the norms section by ``norms_section``).
"""

from __future__ import annotations

import html
import re
from importlib.resources import files
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.arrays.number_text import signed_text
from pipeline.rules.k_facts import ASSUMED_NOTE
from pipeline.writers.html.norms_section import norms_html
from pipeline.writers.text.report_text import report_context

if TYPE_CHECKING:
    from pipeline.report import EventReport
    from pipeline.writers.text.norms_text import NormsText

SECTIONS_MAX_PLAYERS = 1_000
CHARTS_MAX_PLAYERS = 100

STANDINGS_HEAD = [
    ("rank", "#", ""),
    ("name", "player", ""),
    ("rating", "rating", ""),
    ("k", "K", ""),
    ("games", "games", ""),
    ("points", "points", "opt"),
    ("score", "score", ""),
    ("expected", "expected", ""),
    ("performance", "perf.", "opt"),
    ("change_exact", "change (exact)", "opt"),
    ("change", "change", ""),
    ("new_rating", "new", ""),
]
GAMES_HEAD = [
    ("round", "rd", ""),
    ("opponent_name", "opponent", ""),
    ("opponent_rating", "rating", ""),
    ("result", "result", ""),
    ("gap", "gap", "opt"),
    ("gap_used", "gap used", ""),
    ("pd", "PD", ""),
    ("dev", "S - PD", ""),
    ("k_dev", "K x (S - PD)", ""),
    ("note", "note", "opt"),
    ("counted", "why it counted so", "opt"),
]
# Every standings column but the name holds a number.
NUMERIC = {key for key, _, _ in STANDINGS_HEAD} - {"name"}
# Differences, shown with their sign as every face shows them (``signed_text``): +6.90, +7.
SIGNED = {"change", "change_exact", "gap", "gap_used", "dev", "k_dev"}

# The page's style and its sorting script, inlined so the file stands alone (package data).
CSS = (files("pipeline.writers.html") / "report.css").read_text(encoding="utf-8")
SCRIPT = (files("pipeline.writers.html") / "report.js").read_text(encoding="utf-8")


CHART_LEGEND = (
    '<p class="legend"><span class="sw actual"></span>actual score '
    '<span class="sw expected"></span>expected score (sum of PD)</p>'
)
_METADATA = re.compile(r"<metadata>.*?</metadata>", re.S)
_HTML_SPECIAL = "[&<>\"']"  # the characters html.escape replaces


def anchor(player_id: str) -> str:
    return "p-" + re.sub(r"[^A-Za-z0-9_-]", "_", player_id)


def _esc(series: pd.Series) -> pd.Series:
    """``html.escape`` column-wise (same five replacements, & first)."""
    text = series.astype(str)
    # Most columns (numbers, dates, flags) hold none of the five: one scan instead of five, by
    # Arrow's kernel on the column's own buffers (pandas' ``str.contains`` costs ~0.2 ms more a
    # column, 30-odd columns a page).
    found = pc.match_substring_regex(pa.array(text, type=pa.string()), _HTML_SPECIAL)
    if not pc.any(found).as_py():
        return text
    for char, entity in (
        ("&", "&amp;"),
        ("<", "&lt;"),
        (">", "&gt;"),
        ('"', "&quot;"),
        ("'", "&#x27;"),
    ):
        text = text.str.replace(char, entity, regex=False)
    return text


def _change_class(text: pd.Series) -> pd.Series:
    """down for a loss, up for a gain, nothing for no change, words for words (an unrated
    player's: they wrap, not widen the column)."""
    gain = text.str.fullmatch(r"\+?[0-9.]+") & ~text.isin(["0", "0.00"])
    words = text.str.contains(r"[a-z]", regex=True)
    return np.where(
        text.str.startswith("-"), "down", np.where(gain, "up", np.where(words, "words", ""))
    )


def standings_html(table: pd.DataFrame, linked: set[str]) -> str:
    """The standings table; every row built column-wise (no per-player loop)."""
    head = "".join(
        f'<th class="{cls}{" t" if key == "name" else ""}"'
        f"{' data-num=1' if key in NUMERIC else ''}>"
        f"{label}</th>"
        for key, label, cls in STANDINGS_HEAD
    )
    ids = table["id"].astype(str)
    name = _esc(table["name"]) + ' <span class="muted pid">' + _esc(ids) + "</span>"
    has_link = ids.isin(linked).to_numpy()
    anchors = ids.map(anchor)
    name = pd.Series(
        np.where(has_link, '<a href="#' + anchors + '">' + name + "</a>", name), index=table.index
    )
    # An assumed K is marked (the sort reads "20*" as 20); the legend under the table says why.
    assumed = table["k_assumed"].eq("true").to_numpy()
    k = _esc(table["k"]) + np.where(assumed, f'<abbr title="{ASSUMED_NOTE}">*</abbr>', "")
    parts: list[object] = ["<tr>"]
    for key, _, cls in STANDINGS_HEAD:
        value = name if key == "name" else (k if key == "k" else _esc(_shown(table, key)))
        klass: object = (cls + " t").strip() if key == "name" else cls.strip()
        if key in ("change", "change_exact"):
            change = _change_class(table[key])
            # "down", "up" or "words" (an unrated player's: they wrap) beside the column's class.
            klass = pa.array(
                np.where(change == "", cls.strip(), np.char.strip(cls + " " + change.astype(str))),
                type=pa.string(),
            )
        parts += ['<td class="', klass, '">', _arrow_text(value), "</td>"]
    # One element-wise join of all the pieces (pandas' + would copy the rows once a piece).
    rows = pc.binary_join_element_wise(*parts, "</tr>", "")
    body = "\n".join(rows.to_pylist())
    legend = ""
    if assumed.any():
        legend = f'<p class="note">* {ASSUMED_NOTE} (the warning above names them and the fix)</p>'
    return (
        '<div class="scroll"><table class="sortable" id="standings">'
        f"<thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table></div>{legend}"
    )


def _text_class(key: str, cls: str) -> str:
    """Text columns are left-aligned (class t); numbers right-aligned."""
    return (cls + (" t" if key in ("opponent_name", "counted", "note") else "")).strip()


def _games_head(breakdown: pd.DataFrame) -> list[tuple[str, str, str]]:
    """The game table's columns; sequential mode adds the running rating each game used."""
    if "rating_used" not in breakdown:
        return GAMES_HEAD
    return [GAMES_HEAD[0], ("rating_used", "rating before", ""), *GAMES_HEAD[1:]]


def games_header(breakdown: pd.DataFrame) -> str:
    return "".join(
        f'<th class="{_text_class(key, cls)}">{label}</th>'
        for key, label, cls in _games_head(breakdown)
    )


def game_rows_html(breakdown: pd.DataFrame) -> pd.Series:
    """Every game row as HTML, built column-wise once for the whole event."""
    name = breakdown["opponent_name"].where(breakdown["opponent_name"] != "", breakdown["opponent"])
    name = name.where(name != "", "-")
    opening = np.where(breakdown["rated"] == "yes", "<tr>", '<tr class="unrated">')
    parts: list[object] = [pa.array(opening, type=pa.string())]
    for key, _, cls in _games_head(breakdown):
        value = _esc(name if key == "opponent_name" else _shown(breakdown, key))
        parts += [f'<td class="{_text_class(key, cls)}">', _arrow_text(value), "</td>"]
    # One element-wise join of all the pieces (pandas' + would copy the row once a column).
    row = pc.binary_join_element_wise(*parts, "</tr>", "")
    return pd.Series(row.to_numpy(zero_copy_only=False), index=breakdown.index, dtype=str)


def _shown(table: pd.DataFrame, key: str) -> pd.Series:
    """A column as the page shows it: a difference with its sign, the rest as written."""
    return signed_text(table[key]) if key in SIGNED else table[key]


def _arrow_text(text: pd.Series) -> pa.Array:
    """A text column as an Arrow string array (no copy when pandas holds it in Arrow)."""
    return pa.array(text, type=pa.string())


def _games_html(rows: str, header: str) -> str:
    return (
        f'<div class="scroll"><table class="games"><thead><tr>{header}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def _section_heads(rows: pd.DataFrame) -> list[str]:
    """Each player section's start, up to its totals (``</dl></div>``), built column-wise."""

    def either(text: pd.Series, blank: str) -> pd.Series:
        return text.where(text != "", blank)

    change = rows["change"].where(
        rows["change_exact"] == "",
        signed_text(rows["change_exact"])
        + " exact, "
        + signed_text(rows["change"])
        + " rounded (once, .5 away from zero)",
    )
    totals = [
        ("rating", either(rows["rating"], "unrated")),
        ("K", rows["k_rule"]),
        ("rated games", rows["games"]),
        ("score / expected", rows["score"] + " / " + rows["expected"]),
        ("performance (FIDE)", either(rows["performance"], "-")),
        ("change", change),
        ("new rating", either(rows["new_rating"], "-")),
    ]
    ids = rows["id"].astype(str)
    parts: list[object] = [
        '<section class="player" id="',
        _arrow_text(ids.map(anchor)),
        '"><h3>',
        _arrow_text(_esc(rows["rank"])),
        ". ",
        _arrow_text(_esc(rows["name"])),
        ' <span class="muted">',
        _arrow_text(_esc(ids)),
        '</span></h3><div class="cols"><div><dl class="totals">',
    ]
    for label, value in totals:
        parts += [f"<dt>{html.escape(label)}</dt><dd>", _arrow_text(_esc(value)), "</dd>"]
    heads = pc.binary_join_element_wise(*parts, "</dl></div>", "")
    return heads.to_pylist()


def _rated_sides(report: EventReport, breakdown: pd.DataFrame, only: list[str] | None) -> int:
    """The rated game sides the page is about: the event's, or those of the ``only`` players."""
    if only is None:
        return report.rated_sides
    mine = breakdown[breakdown["player"].isin(only)]
    return int(mine["rated"].eq("yes").sum())


def render_report(
    report: EventReport,
    standings: pd.DataFrame,
    breakdown: pd.DataFrame,
    only: list[str] | None = None,
    *,
    norms: NormsText | None,
) -> str:
    """The whole page, from the report model and its text frames (``report_text``; ``norms``:
    the title norms' text, ``norms_text.norms_text(report.norms)``, which report.xlsx shows
    too). ``only`` = player ids: a report for those players alone (no norms)."""
    note = report.mode_note
    if only is not None:
        standings = standings[standings["id"].isin(only)]
    section_rows = standings.head(SECTIONS_MAX_PLAYERS)
    sections, linked = _player_sections(section_rows, breakdown)
    title = (
        report.title
        if only is None
        else "Player report: "
        + ", ".join(f"{n} ({i})" for i, n in zip(standings["id"], standings["name"], strict=True))
    )
    mode = f'<p class="note">NOTE: {html.escape(note)}</p>' if note else ""
    limit_html = _limits_html(standings, section_rows)
    event_chart = _event_chart(standings) if only is None else ""
    norms_section = norms_html(norms) if only is None else ""
    rated_sides = _rated_sides(report, breakdown, only)
    context = "".join(
        f'<p class="muted">{html.escape(line)}</p>\n' for line in report_context(report)
    )
    sources = ", ".join(html.escape(s) for s in report.sources)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}: rating report {html.escape(report.period)}</title>
<style>{CSS}</style></head>
<body>
<header><h1>{html.escape(title)}</h1>
<p class="muted">period {html.escape(report.period)} &middot;
rules {html.escape(report.rule_set)} &middot;
method {html.escape(report.method)} &middot; mode {html.escape(report.mode)} &middot;
{len(standings):,} players &middot; {rated_sides:,} rated game sides &middot; from {sources}</p>
{context}{mode}</header>
<main>
<h2>Standings</h2>
<p class="muted noprint">Click a column header to sort.
Ranked {html.escape(report.order_words)}.</p>
{standings_html(standings, linked)}
{event_chart}
{norms_section}
<h2>Players</h2>
{limit_html}
{sections}
</main>
<footer><p class="muted">{html.escape(report.method_words)}
The change is K x sum(S - PD) over the period, rounded once, .5 away from zero.</p></footer>
<script>{SCRIPT}</script>
</body></html>
"""


def _player_sections(section_rows: pd.DataFrame, breakdown: pd.DataFrame) -> tuple[str, set[str]]:
    """(the HTML of every player's section, the ids that have one: the standings link them)."""
    # matplotlib is imported only when a page is drawn: it is slow to import.
    from pipeline.writers.html.svg_charts import ExpectedVsActual

    shown = breakdown[breakdown["player"].isin(section_rows["id"])]
    header = games_header(shown)
    # Plain arrays and one slice per player: a DataFrame per player costs more than its HTML.
    players = shown["player"].to_numpy()
    row_html = game_rows_html(shown).to_numpy()
    rated_mask = (shown["rated"] == "yes").to_numpy()
    cum_expected = shown["cum_expected"].to_numpy()
    cum_score = shown["cum_score"].to_numpy()
    starts: np.ndarray | list[int] = (
        np.flatnonzero(np.r_[True, players[1:] != players[:-1]]) if len(players) else []
    )
    ends = [*starts[1:], len(players)] if len(players) else []  # an event with no games: none
    bounds = dict(zip(players[starts], zip(starts, ends, strict=True), strict=True))
    # The sections' text but the charts and game rows, column-wise for the players with games;
    # each player's chart is drawn and its game rows taken in one pass over them.
    has_games = section_rows["id"].isin(list(bounds)).to_numpy()
    heads = _section_heads(section_rows[has_games])
    sections = []
    with ExpectedVsActual() as drawer:
        for head, i, player_id in zip(
            heads,
            np.flatnonzero(has_games).tolist(),
            section_rows["id"][has_games].tolist(),
            strict=True,
        ):
            lo, hi = bounds[player_id]
            chart = ""
            mine = rated_mask[lo:hi]
            if i < CHARTS_MAX_PLAYERS and mine.any():
                svg = drawer.svg(cum_expected[lo:hi][mine], cum_score[lo:hi][mine], f"p{i}")
                svg = _METADATA.sub("", svg)
                chart = f'<div class="chart">{svg}{CHART_LEGEND}</div>' if svg else ""
            games = _games_html("".join(row_html[lo:hi]), header)
            sections.append(f"{head}{chart}</div>{games}</section>")
    return "".join(sections), set(section_rows["id"].astype(str)) & set(bounds)


def _limits_html(standings: pd.DataFrame, section_rows: pd.DataFrame) -> str:
    """What a very large event's page leaves out, said on the page."""
    limits = []
    if len(standings) > SECTIONS_MAX_PLAYERS:
        limits.append(
            f"player sections are shown for the first {SECTIONS_MAX_PLAYERS:,} players "
            f"of {len(standings):,} (all are in the standings and in games.csv)"
        )
    if len(section_rows) > CHARTS_MAX_PLAYERS:
        limits.append(
            f"expected-vs-actual charts are drawn for the first {CHARTS_MAX_PLAYERS:,} players"
        )
    return "".join(f'<p class="muted">{html.escape(t)}.</p>' for t in limits)


def _event_chart(standings: pd.DataFrame) -> str:
    """The event's rating changes against the starting ratings ('' when nobody played)."""
    from pipeline.writers.html.svg_charts import changes_vs_rating_svg

    # Rated players who played: an unrated one has no starting rating to draw against.
    played = standings[
        (standings["games"] != "0")
        & (standings["rating"] != "")
        & (standings["change_exact"] != "")
    ]
    if not len(played):
        return ""
    ratings = pd.to_numeric(played["rating"]).to_numpy()
    changes = pd.to_numeric(played["change_exact"]).to_numpy()  # display only
    return (
        '<h2>Rating changes against starting rating</h2><div class="chart event-chart">'
        + _METADATA.sub("", changes_vs_rating_svg(ratings, changes))
        + "</div>"
    )
