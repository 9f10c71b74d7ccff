"""How the title-norm requirements read: their names in order, the short headers and the legend
of the margins, and a margin as text. One wording for ``fiderate norms``
(``pipeline.norms.norm_text``) and the reports (``pipeline.writers``), which import no norm
check."""

from __future__ import annotations

# The requirements of a norm (Handbook B.01), in the order every table shows them.
REQUIREMENTS = [
    "min_games",
    "all_rounds",
    "min_performance",
    "min_average",
    "min_score",
    "titled",
    "holders",
    "foreign_federations",
    "own_federation",
    "one_federation",
]

# Short headers of the requirement margins in the text table.
SHORT = {
    "min_games": "gms",
    "all_rounds": "rr",
    "min_performance": "perf",
    "min_average": "avg",
    "min_score": "35%",
    "titled": "50%",
    "holders": "1/3",
    "foreign_federations": "2fed",
    "own_federation": "own",
    "one_federation": "one",
}
LEGEND = (
    "Margins: + spare, - short (gms games over 9; rr games missing in a round robin; perf Rp "
    "over the minimum before rounding; avg Ra over the minimum; 35% points over 35%; 50% "
    "title holders over half; 1/3 holders of the norm's title over 1/3 and 3; 2fed federations "
    "over 2; own/one opponents under 3/5 own federation / 2/3 one federation). "
    "w = waived (1.4.3), . = does not apply."
)


def plain_margin(value: float, name: str) -> str:
    """One margin as plain number text: whole numbers bare, points and Rp with their decimals
    (the reports' Norms table; the columns are formatted once per distinct value by
    ``arrays.distinct_values.per_distinct``)."""
    if name in ("min_performance", "min_score"):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{int(value)}"


def signed_margin(status: str, value: float, name: str) -> str:
    """One margin for reading: signed (+0 is met exactly), ! when missed, w when waived, . n/a
    (``fiderate norms`` and report.html)."""
    if status == "n/a":
        return "."
    if status == "waived":
        return "w"
    text = plain_margin(value, name)
    text = text if text.startswith("-") else "+" + text
    return text + "!" if status == "missed" else text
