"""Shared fixtures: the project root, sample data and the optional ../shared folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# No per-example deadline: CI and developers' machines are shared, and a slow first example under
# load is not a failure of the property (the examples themselves stay bounded by max_examples).
settings.register_profile("fiderate", deadline=None)
settings.load_profile("fiderate")

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
SHARED = ROOT.parent / "shared"


@pytest.fixture
def sample() -> Path:
    return SAMPLE


@pytest.fixture
def shared_fide() -> Path:
    path = SHARED / "fide"
    if not path.is_dir():
        pytest.skip("../shared/fide is not present")
    return path


@pytest.fixture
def shared_trf() -> Path:
    path = SHARED / "trf"
    if not path.is_dir():
        pytest.skip("../shared/trf is not present")
    return path
