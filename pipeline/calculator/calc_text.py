"""Text and JSON for the calculator commands. Exact integers in, fixed decimals out (no float
arithmetic between the pipeline's integers and the text; JSON numbers are converted from exact
decimals, so they print as the same digits).

One concept: what the calculator commands print (calc, table, expect, performance), as text and
as JSON, from the same values.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pipeline.calculator.calc import Calculation
from pipeline.calculator.expectancy import ExpectancyTable, formula_gap_for
from pipeline.engine.expected import SCALES
from pipeline.grouper.performance import LINEAR_LABEL, Performance
from pipeline.rules.fide_tables import expectancy_table
from pipeline.rules.k_facts import k_words
from pipeline.rules.modes import SEQUENTIAL_LABEL
from pipeline.rules.rounding import rescale_half_away
from pipeline.rules.sets import get_rules
from pipeline.rules.signs import signed

METHOD_LABEL = {
    "fide": "fide (FIDE table 8.1.2)",
    "formula": "formula (logistic 1 / (1 + 10^(-D/400)); not the FIDE method)",
}


def fixed(units: int, scale: int, decimals: int, sign: bool = False) -> str:
    """``units / scale`` with ``decimals`` decimals (.5 away from zero); '+' if ``sign``."""
    value = int(rescale_half_away(int(units), scale, 10**decimals))
    text = f"{abs(value) // 10**decimals}"
    if decimals:
        text += f".{abs(value) % 10**decimals:0{decimals}d}"
    if value < 0:
        return "-" + text
    return ("+" + text) if sign and value else text


def exact(units: int, scale: int) -> float:
    """JSON number for ``units / scale`` (exact decimal, printed with the same digits)."""
    return float(Decimal(int(units)) / Decimal(scale))


def signed_int(value: int) -> str:
    """A whole difference with its sign (:func:`pipeline.rules.signs.signed`)."""
    return signed(value)


def text_table(headers: list[str], rows: list[list[str]], left: int = 0) -> list[str]:
    """Aligned columns: the first ``left`` columns left-aligned, the rest right-aligned."""
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(headers)] + [line(r) for r in rows]


def _score(score_h: int) -> str:
    return {100: "1", 50: "0.5", 0: "0"}.get(score_h, fixed(score_h, 100, 1))


def rules_line(c: Calculation) -> str:
    """The era a family name gave for ``--period``, and why; "" when it is the family's
    latest (what ``--rules standard`` means without a period)."""
    if c.rules is get_rules(c.request.rules):
        return ""
    return f"rules {c.rules.name}: {c.rules_reason}"


def _header(c: Calculation) -> list[str]:
    req = c.request
    p = c.player
    k_line = k_words(int(p["k"]), p["k_rule"])
    if int(p["k"]) != int(p["k_base"]):
        cap = c.rules.k.period_cap
        k_line += f" (K {int(p['k_base'])} x {int(p['games'])} games > {cap})"
    lines = [
        f"rating {req.rating}, {len(req.opponents)} game(s), rules {req.rules}, "
        f"method {METHOD_LABEL[req.method]}",
    ]
    lines += [line for line in [rules_line(c)] if line]
    lines.append(k_line)
    if req.mode == "sequential":
        lines.append(f"NOTE: {SEQUENTIAL_LABEL}")
    return lines


def calc_lines(c: Calculation) -> list[str]:
    g = c.games
    scale = c.scale
    method = c.request.method
    dec = 2 if method == "fide" else 4
    sequential = c.request.mode == "sequential"
    headers = [
        "game",
        "opponent",
        "result",
        "gap",
        "gap used",
        "E table",
        "E formula",
        "S - E",
        "K x (S - E)",
        "opp K",
        "opp change",
    ]
    if sequential:
        headers.insert(1, "rating before")
    rows = []
    unrated: list[str] = []
    for r in g:
        row = [
            str(r.round),
            str(r.opponent),
            _score(r.score_h),
            str(r.gap),
            str(r.gap_used),
            fixed(r.pd_fide_h, 100, 2),
            fixed(r.e_formula_u, SCALES["formula"], 4),
            fixed(r.dev_units, scale, dec, sign=True),
            fixed(r.k_dev_units, scale, 2, sign=True),
            str(r.opp_k),
            f"{fixed(r.opp_change_units, scale, 2, sign=True)} -> {signed_int(r.opp_change)}",
        ]
        if not r.rated:  # not rated by the rules: no gap used, PD or change (said below)
            row[4:11] = ["-", "-", "-", "-", "-", str(r.opp_k), "-"]
            unrated.append(f"game {r.round} is not rated: {r.note}")
        if sequential:
            row.insert(1, str(r.rating_used))
        rows.append(row)
    p = c.player
    total = [
        "total",
        "",
        _score(int(p["score_h"])),
        "",
        "",
        fixed(sum(r.pd_fide_h for r in g), 100, 2),
        fixed(sum(r.e_formula_u for r in g), SCALES["formula"], 4),
        fixed(int(p["dev_units"]), scale, dec, sign=True),
        fixed(int(p["change_units"]), scale, 2, sign=True),
        "",
        "",
    ]
    if sequential:
        total.insert(1, "")
    rows.append(total)
    lines = _header(c) + [""] + text_table(headers, rows) + unrated
    new_units = _new_units(c.request.rating, p["change_units"], scale)
    lines += [
        "",
        f"change: exact {fixed(int(p['change_units']), scale, 2, sign=True)}"
        + (" (2 of its decimals shown)" if method == "formula" else "")
        + f", rounded {signed_int(int(p['change']))} (once, .5 away from zero)",
        f"new rating: exact {fixed(new_units, scale, 2)}, rounded {int(p['new_rating'])}",
    ]
    return lines


def _new_units(rating: int, change_units: int | str, scale: int) -> int:
    """The new rating before the rounding, in units of 1/``scale`` (exact integers)."""
    return int(rating) * scale + int(change_units)


def calc_json(c: Calculation) -> dict[str, Any]:
    scale = c.scale
    p = c.player
    games = [
        {
            "game": int(r.round),
            "rating_used": int(r.rating_used),
            "opponent": int(r.opponent),
            "result": exact(r.score_h, 100),
            "gap": int(r.gap),
            "rated": bool(r.rated),
            "note": r.note,
            "gap_used": int(r.gap_used) if r.rated else None,
            "expected_fide": exact(r.pd_fide_h, 100) if r.rated else None,
            "expected_formula": exact(r.e_formula_u, SCALES["formula"]) if r.rated else None,
            "s_minus_e": exact(r.dev_units, scale) if r.rated else None,
            "k_x_s_minus_e": exact(r.k_dev_units, scale) if r.rated else None,
            "opponent_k": int(r.opp_k),
            "opponent_change_exact": exact(r.opp_change_units, scale),
            "opponent_change": int(r.opp_change),
            "opponent_new_rating_exact": exact(
                _new_units(r.opponent, r.opp_change_units, scale), scale
            ),
            "opponent_new_rating": int(r.opp_new),
        }
        for r in c.games
    ]
    return {
        "rating": c.request.rating,
        "rules": c.request.rules,
        "method": c.request.method,
        "mode": c.request.mode,
        "fide_method": c.request.mode == "fide" and c.request.method == "fide",
        "k": int(p["k"]),
        "k_base": int(p["k_base"]),
        "k_rule": str(p["k_rule"]),
        "games": games,
        "totals": {
            "games": int(p["games"]),
            "score": exact(int(p["score_h"]), 100),
            "expected": exact(int(p["expected_units"]), scale),
            "s_minus_e": exact(int(p["dev_units"]), scale),
            "change_exact": exact(int(p["change_units"]), scale),
            "change": int(p["change"]),
            "new_rating_exact": exact(
                _new_units(c.request.rating, p["change_units"], scale), scale
            ),
            "new_rating": int(p["new_rating"]),
        },
        "rule_set": c.rules.name,  # the era ``rules`` gave for the period, and why
        "rules_reason": c.rules_reason,
    }


def every_result_lines(outcomes: dict[str, Calculation]) -> list[str]:
    first = next(iter(outcomes.values()))
    g = first.games[0]
    scale = first.scale
    lines = _header(first)
    lines.append(
        f"opponent {g.opponent} (K {g.opp_k}); expected score: table "
        f"{fixed(g.pd_fide_h, 100, 2)}, "
        f"formula {fixed(g.e_formula_u, SCALES['formula'], 4)}"
    )
    rows = []
    for name, c in outcomes.items():
        p, o = c.player, c.games[0]
        rows.append(
            [
                name,
                fixed(int(p["change_units"]), scale, 2, sign=True),
                signed_int(int(p["change"])),
                str(int(p["new_rating"])),
                fixed(o.opp_change_units, scale, 2, sign=True),
                signed_int(o.opp_change),
                str(o.opp_new),
            ]
        )
    headers = [
        "result",
        "your change",
        "rounded",
        "new rating",
        "opp change",
        "rounded",
        "opp new rating",
    ]
    return lines + [""] + text_table(headers, rows, left=1)


def every_result_json(outcomes: dict[str, Calculation]) -> dict[str, Any]:
    return {name: calc_json(c) for name, c in outcomes.items()}


# -- table ---------------------------------------------------------------------------------------


def _worth(t: ExpectancyTable, method: str, side: str, i: int) -> str:
    scale = SCALES[method]
    return " / ".join(
        fixed(
            int(t.worth_units(method, side, res)[i]),
            scale,
            1 if method == "formula" else 2,
            sign=True,
        )
        for res in ("win", "draw", "loss")
    )


def table_lines(t: ExpectancyTable) -> list[str]:
    rows = []
    for i, r in enumerate(t.records()):
        rows.append(
            [
                str(r.gap),
                fixed(r.e_formula_u * 100, SCALES["formula"], 1) + "%",
                fixed(r.pd_fide_h, 100, 2),
                _worth(t, "formula", "favourite", i),
                _worth(t, "formula", "underdog", i),
                _worth(t, "fide", "favourite", i),
                _worth(t, "fide", "underdog", i),
            ]
        )
    headers = [
        "gap",
        "formula",
        "FIDE",
        "favourite W/D/L (formula)",
        "underdog W/D/L (formula)",
        "favourite W/D/L (FIDE)",
        "underdog W/D/L (FIDE)",
    ]
    cap = (
        f"the 400-point rule of {t.rules!r} applied to both sides"
        if t.cap
        else "table 8.1.2 for the real gap (no 400-point rule; --cap applies it)"
    )
    return [
        f"favourite's expected score, and what each result is worth at K {t.k}",
        f"FIDE: {cap}; formula values rounded for display (one decimal)",
        "",
    ] + text_table(headers, rows)


def table_json(t: ExpectancyTable) -> dict[str, Any]:
    rows = []
    for i, r in enumerate(t.records()):
        row: dict[str, Any] = {
            "gap": int(r.gap),
            "formula": exact(r.e_formula_u, SCALES["formula"]),
            "fide": exact(r.pd_fide_h, 100),
        }
        for method in SCALES:
            for side in ("favourite", "underdog"):
                row[f"{method}_{side}"] = {
                    res: exact(int(t.worth_units(method, side, res)[i]), SCALES[method])
                    for res in ("win", "draw", "loss")
                }
        rows.append(row)
    return {"k": t.k, "rules": t.rules, "cap": t.cap, "rows": rows}


def _band_for(p: float) -> tuple[int, int] | None:
    """The gaps of table 8.1.2 whose expectation is exactly ``p`` (hundredths only)."""
    hundredths = Decimal(str(p)) * 100
    if hundredths % 1:
        return None
    return next(((b[0], b[1]) for b in expectancy_table().bands if b[2] == hundredths), None)


def expect_lines(p: float) -> list[str]:
    """Which gap gives the favourite an expected score of ``p`` (formula and FIDE band)."""
    band = _band_for(p)
    p_text = fixed(int(Decimal(str(p)) * 100), 100, 2)  # exact hundredths when a band is found
    fide = (
        f"FIDE table 8.1.2: gaps {band[0]}-{band[1]} give {p_text}"
        if band
        else f"FIDE table 8.1.2: no band gives exactly {p}"
    )
    return [f"formula: a gap of {formula_gap_for(p):.1f} gives {p}", fide]


def expect_json(p: float) -> dict[str, Any]:
    band = _band_for(p)
    return {"expected": p, "formula_gap": formula_gap_for(p), "fide_gaps": band and list(band)}


# -- performance -----------------------------------------------------------------------------


def performance_lines(perf: Performance) -> list[str]:
    avg = perf.average
    lines = [
        f"games {perf.games}, score {fixed(perf.score_h, 100, 1)}, opponents' average "
        f"{fixed(int(rescale_half_away(avg.numerator * 100, avg.denominator, 1)), 100, 2)}",
        "",
        "FIDE performance (Handbook B.01 1.4.8): Rp = Ra + dp(p)",
        f"  Ra = average rounded (.5 up)      {perf.ra}",
        f"  p  = score / games (2 decimals)   {fixed(perf.p_h, 100, 2)}",
        f"  dp = table 8.1.1 at p             {perf.dp:+d}",
        f"  Rp                                {perf.rp}",
        "",
        f"{LINEAR_LABEL}:",
        f"  TPR = {fixed(_frac_units(perf.linear), 100, 2)} -> {perf.linear_rounded}",
    ]
    return lines


def _frac_units(value: Any) -> int:
    """A Fraction in hundredths, .5 away from zero (display)."""
    return (
        int(rescale_half_away(value.numerator, value.denominator, 100)) if value.denominator else 0
    )


def performance_json(perf: Performance) -> dict[str, Any]:
    return {
        "games": perf.games,
        "score": exact(perf.score_h, 100),
        "average": exact(_frac_units(perf.average), 100),
        "fide": {"ra": perf.ra, "p": exact(perf.p_h, 100), "dp": perf.dp, "rp": perf.rp},
        "linear_approximation": {
            "label": LINEAR_LABEL,
            "exact": exact(_frac_units(perf.linear), 100),
            "rounded": perf.linear_rounded,
        },
    }


__all__ = [
    "calc_json",
    "calc_lines",
    "every_result_json",
    "every_result_lines",
    "expect_json",
    "expect_lines",
    "performance_json",
    "performance_lines",
    "table_json",
    "table_lines",
]
