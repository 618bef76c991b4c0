"""The README's Python example must run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavola.games.gonzaga.board import default_board_path

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.skipif(not default_board_path().exists(), reason="the shipped board is not built")
def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no Python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "take-your-fief" in out  # the illegal action names the rule it breaks
