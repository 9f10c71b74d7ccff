"""A player's sex code, one rule for every face: which codes are female, and the words a page
shows for them.

Files spell it ``m`` / ``w`` (TRF 001 column 10, fiderate's lists) and sometimes ``f``, in
either case; FIDE's own lists print ``M`` / ``F``, and FIDE's profile page reads "Male" /
"Female". Blank is unknown. Kept free of pandas: a page's filter uses :func:`sex_words` on one
value, a table's column uses :data:`FEMALE` / :data:`MALE` with ``str.lower().isin``.
"""

from __future__ import annotations

# Codes (lower case) of a player known to be female: the women's and girls' top lists, the
# WGM/WIM norm checks and FIDE's TXT ``F`` all ask this.
FEMALE = frozenset({"w", "f"})
MALE = frozenset({"m"})


def sex_words(code: object) -> str:
    """What a page shows for a sex code: "Female", "Male", "unknown" when blank; any other
    code as the file wrote it (shown, not guessed)."""
    text = "" if code is None else str(code).strip()
    if text.lower() in FEMALE:
        return "Female"
    if text.lower() in MALE:
        return "Male"
    return text or "unknown"
