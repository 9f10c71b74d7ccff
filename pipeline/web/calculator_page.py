"""The calculator page's numbers: the query string (the page's URL, shared as it is) read into the
calculator jobs' requests, and what the page shows computed by those jobs
(:mod:`pipeline.jobs.calculators`, the same calls as ``fiderate calc`` and ``fiderate table``).

Nothing is computed here but labels: which rule bit a game (the 400-point rule, the 2650
exemption) is read from the rule set and the numbers the jobs return.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import zip_longest
from typing import Any

from pipeline.calculator.calc_input import (
    BIRTH_YEAR,
    CAREER_GAMES,
    RATING,
    Game,
    GamesError,
    K,
    Whole,
    read_games,
    read_result,
    read_whole,
)
from pipeline.calculator.calc_text import fixed, rules_line, signed_int
from pipeline.errors import FiderateError, UsageError, clip
from pipeline.jobs import calculators
from pipeline.jobs.calculators import CalcRequest, Calculation, KInput, TableRequest
from pipeline.rules.counted_words import method_words
from pipeline.rules.k_facts import k_words
from pipeline.rules.modes import MODES, SEQUENTIAL_LABEL
from pipeline.rules.sets import RULE_SETS

EVERY_RESULT_SHOWN = 12  # every possible result is shown for the first few games
RESULTS = {"1": 100, "0.5": 50, "0": 0}  # the form's choices (any spelling the CLI reads is read)
NOT_PLAYED = "?"
# K presets: FIDE's precedence from what the user says, US Chess's three fixed values, or any K.
K_PRESETS = {
    "fide": "FIDE (by age, games and the 2400 rule)",
    "us32": "US Chess 32 (below 2100)",
    "us24": "US Chess 24 (2100-2399)",
    "us16": "US Chess 16 (2400 and above)",
    "custom": "custom K",
}
US_K = {"us32": 32, "us24": 24, "us16": 16}
DEFAULTS = {"r": "1650", "kp": "fide", "rules": "standard", "mode": "fide"}


@dataclass
class CalcInputs:
    """The form as typed (strings, shown back in the fields) and the problems found in it."""

    values: dict[str, str]
    opponents: list[tuple[str, str]]  # (rating, result) as typed, one per row
    problems: list[str] = field(default_factory=list)


def _one(query: Mapping[str, str], name: str) -> str:
    return str(query.get(name, DEFAULTS.get(name, ""))).strip()


def _shown_result(text: str) -> str:
    """The form's choice for a typed result (``0-1`` is "loss"), as typed when it is none."""
    try:
        score = read_result(text)
    except UsageError:
        return text.strip()
    return NOT_PLAYED if score is None else next(k for k, h in RESULTS.items() if h == score)


def read_inputs(
    query: Mapping[str, str], opponents: Sequence[str], results: Sequence[str]
) -> CalcInputs:
    """The query's fields (``o`` and ``s`` repeated: one opponent and result per row; an ``o``
    without its ``s`` is a game not played yet). Nothing is cut short: what cannot be read is
    refused by :func:`requests_of`."""
    names = ("r", "kp", "k", "opk", "by", "jr", "g", "e", "rules", "mode", "period")
    values = {name: _one(query, name) for name in names}
    rows = list(zip_longest(opponents, results[: len(opponents)], fillvalue=""))
    if not query.get("r") and not rows:
        rows = [("1800", "1")]  # the empty page shows one example game
    rows = [(o.strip(), _shown_result(s)) for o, s in rows]
    return CalcInputs(values, rows)


def _whole(text: str, what: str, bounds: Whole, problems: list[str]) -> int | None:
    """A field read as ``fiderate calc`` reads the option (None when blank)."""
    if text == "":
        return None
    try:
        return read_whole(text, bounds)
    except UsageError as exc:
        problems.append(f"{what}: {exc}")
        return None


def _games(inputs: CalcInputs) -> list[Game]:
    """The typed games, read as ``fiderate calc`` reads its ``--vs`` (a blank row of the form is
    no game); each problem is added to ``inputs``, naming the row as the form numbers it."""
    given = [(number, row) for number, row in enumerate(inputs.opponents, start=1) if row[0]]
    if not given:
        inputs.problems.append("give at least one opponent's rating")
    try:
        return read_games([row for _, row in given])
    except GamesError as exc:
        for p in exc.problems:
            what = "opponent" if p.part == "rating" else "result"
            inputs.problems.append(f"{what} {given[p.number - 1][0]}: {p.message}")
    except UsageError as exc:  # too many games
        inputs.problems.append(str(exc))
    return []


def requests_of(inputs: CalcInputs) -> tuple[CalcRequest | None, list[Game]]:
    """The fide-method request of the typed games (None when something cannot be read; the
    problems are added to ``inputs``), and every (opponent, result or None) row read."""
    v, problems = inputs.values, inputs.problems
    rating = _whole(v["r"], "your rating", RATING, problems)
    if v["r"] == "":
        problems.append(f"your rating: give it ({RATING.low}..{RATING.high})")
    preset = v["kp"] if v["kp"] in K_PRESETS else "fide"
    k = US_K.get(preset)
    if preset == "custom":
        k = _whole(v["k"], "K", K, problems)
        if k is None and not v["k"]:
            problems.append(f"K: give the custom K ({K.low}..{K.high})")
    kin = KInput(
        k=k,
        opp_k=_whole(v["opk"], "opponents' K", K, problems),
        junior=preset == "fide" and v["jr"] == "1",
        birth_year=_whole(v["by"], "birth year", BIRTH_YEAR, problems)
        if preset == "fide"
        else None,
        games=_whole(v["g"], "games played before", CAREER_GAMES, problems)
        if preset == "fide"
        else None,
        ever_2400=preset == "fide" and v["e"] == "1",
        k_words="" if k is None else f"{K_PRESETS[preset]}, used as given",
    )
    if v["rules"] not in RULE_SETS:
        problems.append(f"rules: {clip(v['rules'])!r} is not one of {', '.join(RULE_SETS)}")
    if v["mode"] not in MODES:
        problems.append(f"mode: {clip(v['mode'])!r} is not one of {', '.join(MODES)}")
    rows = _games(inputs)
    if problems or rating is None:
        return None, rows
    given = [(o, s) for o, s in rows if s is not None]
    request = CalcRequest(
        rating,
        tuple(o for o, _ in given),
        tuple(s for _, s in given),  # type: ignore[misc]  # None filtered out above
        kin,
        v["rules"],
        "fide",
        v["mode"],
        v["period"] or None,
    )
    return request, rows


def _rule_notes(c: calculators.Calculation) -> list[str]:
    """Per game: why its difference counted as it did (the calculation's own words: the era's
    cap, the exemption, or the average method's D), "not rated: ..." for a game left out."""
    return [g.counted if g.rated else f"not rated: {g.note}" for g in c.games]


def _written_formula(c: calculators.Calculation, by_formula: calculators.Calculation) -> list[str]:
    """The change with the user's numbers written in: FIDE's method (PD from table 8.1.2), then
    the formula's expectation of the first rated game (not FIDE's method)."""
    p = c.player
    scale = c.scale
    terms = [
        f"({fixed(g.score_h, 100, 1)} - {fixed(g.pd_fide_h, 100, 2)})" for g in c.games if g.rated
    ]
    k = int(p["k"])
    lines = [
        "change = K x sum(S - PD), PD read from FIDE table 8.1.2 for each difference D",
        f"       = {k} x ({' + '.join(terms) or '0'})",
        f"       = {k} x {fixed(int(p['dev_units']), scale, 2, sign=True)}",
        f"       = {fixed(int(p['change_units']), scale, 2, sign=True)}"
        f" -> {signed_int(int(p['change']))} (rounded once, .5 away from zero)",
        f"new rating = {c.request.rating} {signed_int(int(p['change']))} = {p['new_rating']}",
    ]
    first = next((g for g in by_formula.games if g.rated), None)
    if first is not None:
        lines += [
            "",
            f"the formula (not FIDE's method), game {first.round}: E = 1 / (1 + 10^(-D/400))",
            f"       = 1 / (1 + 10^({-first.gap_used:+d}/400))"
            f" = {fixed(first.e_formula_u, by_formula.scale, 4)}",
        ]
    return lines


def _every_result(request: CalcRequest, rows: list[Game]) -> list[dict[str, Any]]:
    """For each opponent (the first few): what a win, a draw and a loss bring to both sides."""
    shown = []
    for opponent, _ in rows[:EVERY_RESULT_SHOWN]:
        one = CalcRequest(
            request.rating, (opponent,), (), request.k, request.rules, "fide", request.mode,
            request.period,
        )  # fmt: skip
        outcomes = calculators.every_outcome(one)
        shown.append(
            {
                "opponent": opponent,
                "rows": [
                    {
                        "result": name,
                        "mine": fixed(int(c.player["change_units"]), c.scale, 2, sign=True),
                        "mine_rounded": signed_int(int(c.player["change"])),
                        "new": int(c.player["new_rating"]),
                        "theirs": fixed(c.games[0].opp_change_units, c.scale, 2, sign=True),
                        "theirs_rounded": signed_int(c.games[0].opp_change),
                        "their_new": c.games[0].opp_new,
                    }
                    for name, c in outcomes.items()
                ],
            }
        )
    return shown


def _first_outcome(request: CalcRequest, rows: list[Game]) -> Calculation:
    one = replace(request, opponents=(rows[0][0],), scores_h=())
    return calculators.every_outcome(one)["win"]


def _table(k: int, rules: str) -> list[dict[str, str]]:
    """The expectancy table (``fiderate table``) at the player's K: the expected score for the
    real gap, and what each result is worth as the rating counts it (the era's cap on: above a
    400-point gap a game is worth what the calculation above gives, not the real gap's)."""
    t = calculators.table(TableRequest(k=k, step=50, max_gap=800, rules=rules))
    counted = calculators.table(TableRequest(k=k, step=50, max_gap=800, rules=rules, cap=True))
    rows = []
    for i, r in enumerate(t.records()):
        worth = {
            key: " / ".join(
                fixed(int(counted.worth_units("fide", side, res)[i]), 100, 2, sign=True)
                for res in ("win", "draw", "loss")
            )
            for key, side in (("fav", "favourite"), ("dog", "underdog"))
        }
        rows.append(
            {
                "gap": str(r.gap),
                "fide": fixed(r.pd_fide_h, 100, 2),
                "formula": fixed(r.e_formula_u, 1_000_000, 4),
                **worth,
            }
        )
    return rows


def calculation_context(inputs: CalcInputs) -> dict[str, Any]:
    """Everything the results part of the page shows (``problems`` when it cannot)."""
    request, rows = requests_of(inputs)
    if request is None:
        return {"problems": inputs.problems}
    c: calculators.Calculation | None = None
    by_formula: calculators.Calculation | None = None
    try:
        if request.opponents:  # the games with a result; "not played yet" ones only below
            c = calculators.calc(request)
            by_formula = calculators.calc(replace(request, method="formula"))
        every = _every_result(request, rows)
        # The player's K and era: the calculation's, else those of a game not played yet.
        shown = c or _first_outcome(request, rows)
        k_now = int(shown.player["k"])
        table = _table(k_now, shown.rules.name)
    except FiderateError as exc:
        return {"problems": [str(exc)]}
    context: dict[str, Any] = {
        "problems": [],
        "every": every,
        "table": table,
        "k_now": k_now,
        # How the worth columns counted each gap, in the era's words (rules.counted_words).
        "table_rule": method_words(shown.rules),
    }
    if c is not None and by_formula is not None:
        context.update(_calc_rows(c, by_formula))
    return context


def _calc_rows(c: calculators.Calculation, by_formula: calculators.Calculation) -> dict[str, Any]:
    p, f = c.player, by_formula.player
    notes = _rule_notes(c)
    games = [
        {
            "round": g.round,
            "rating_used": g.rating_used,
            "opponent": g.opponent,
            "result": fixed(g.score_h, 100, 1),
            "gap": f"{g.gap:+d}",
            "gap_used": f"{g.gap_used:+d}" if g.rated else "-",
            "capped": g.rated and g.gap_used != g.gap,
            "pd": fixed(g.pd_fide_h, 100, 2) if g.rated else "-",
            "e_formula": fixed(g.e_formula_u, by_formula.scale, 4) if g.rated else "-",
            "dev": fixed(g.dev_units, c.scale, 2, sign=True) if g.rated else "-",
            "k_dev": fixed(g.k_dev_units, c.scale, 2, sign=True) if g.rated else "-",
            "opp_k": g.opp_k,
            "opp_change": f"{fixed(g.opp_change_units, c.scale, 2, sign=True)} -> "
            f"{signed_int(g.opp_change)}",
            "note": note,
        }
        for g, note in zip(c.games, notes, strict=True)
    ]
    k_line = k_words(p["k"], p["k_rule"])
    if int(p["k"]) != int(p["k_base"]):
        k_line += f" (K {p['k_base']} x {p['games']} games is over the 700 rule's cap)"
    return {
        "games": games,
        "k_line": k_line,
        "rules_line": rules_line(c),  # the era --period gave, as fiderate calc says it
        "sequential": SEQUENTIAL_LABEL if c.request.mode == "sequential" else "",
        "totals": {
            "score": fixed(int(p["score_h"]), 100, 1),
            "expected": fixed(int(p["expected_units"]), c.scale, 2),
            "dev": fixed(int(p["dev_units"]), c.scale, 2, sign=True),
            "change_exact": fixed(int(p["change_units"]), c.scale, 2, sign=True),
            "change": signed_int(int(p["change"])),
            "new_rating": int(p["new_rating"]),
            "formula_change_exact": fixed(int(f["change_units"]), by_formula.scale, 2, sign=True),
            "formula_change": signed_int(int(f["change"])),
            "formula_new_rating": int(f["new_rating"]),
        },
        "change": int(p["change"]),
        "written": _written_formula(c, by_formula),
    }
