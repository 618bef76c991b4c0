"""The colour-difference tools the board tests rely on, against published values."""

from __future__ import annotations

import pytest
from colour_vision import ciede2000, difference, hue, seen_as


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [  # Sharma, Wu and Dalal (2005), table 1
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
])
def test_ciede2000_matches_the_published_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_red_and_green_merge_under_deuteranopia_but_not_blue_and_yellow():
    assert difference("#ff0000", "#00ff00", "normal vision") > 60
    assert difference("#d62728", "#2ca02c", "deuteranopia") < 15  # the classic confusion
    assert difference("#1f4fff", "#ffe119", "deuteranopia") > 50
    assert seen_as("#ffffff", "protanopia")[0] == pytest.approx(100, abs=0.01)


def test_hue_names_the_colour_wheel():
    assert hue("#ff0000") == 0 and hue("#00ff00") == 120 and hue("#0000ff") == 240
    assert hue("rgb(255, 255, 0)") == 60
