"""Shared fixtures: the project root, sample data and the optional ../shared folder."""

from __future__ import annotations

from pathlib import Path

import pytest

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
