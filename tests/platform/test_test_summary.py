"""`make test` says when browser tests were skipped, how many and why, in pytest's summary."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

BROWSER_TESTS = '''
import shutil

import pytest

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (apt-get install chromium): browser tests skipped",
                allow_module_level=True)


def test_lobby():
    pass


def test_whole_game():
    pass
'''

OTHER_TESTS = '''
import pytest


def test_rules():
    pass


@pytest.mark.skip(reason="the real board is not built yet")
def test_real_board():
    pass
'''


def test_summary_counts_skipped_browser_tests_and_says_how_to_run_them(pytester, monkeypatch,
                                                                       tmp_path):
    # This project's own root conftest (and the helper it imports), on two tiny test files.
    pytester.makeconftest((TESTS / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(pgcluster=(TESTS / "pgcluster.py").read_text(encoding="utf-8"),
                        test_web_browser=BROWSER_TESTS, test_rules=OTHER_TESTS)
    (tmp_path / "no-browser").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "no-browser"))  # no chromium to be found
    monkeypatch.delenv("CI", raising=False)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=2)  # the browser module, the real-board test
    text = result.stdout.str()
    result.stdout.fnmatch_lines(["*2 browser tests skipped*",
                                 "*Chromium is not installed*",
                                 "*apt-get install chromium*"])
    assert "3 browser tests" not in text  # the skip for another reason is not counted
