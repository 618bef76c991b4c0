"""The component file: validated, every value labelled, errors naming their place."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tavola.games.signorie.components import DATA, check_components, schema_text, summary
from tavola.games.signorie.tables import tables

ROOT = Path(__file__).resolve().parents[3]
RAW = json.loads(DATA.read_text(encoding="utf-8"))


def problems_of(tmp_path: Path, change) -> list[str]:
    data = copy.deepcopy(RAW)
    change(data)
    path = tmp_path / "components.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return check_components(path)


def test_shipped_file_is_valid_and_summarised():
    assert check_components() == []
    text = summary()
    assert "12" in text and "Milano" in text and "known" in text and "provisional" in text


def test_exported_schema_is_current():
    exported = (ROOT / "docs" / "signorie-components.schema.json").read_text(encoding="utf-8")
    assert exported == schema_text(), "run the export of the schema again (see docs)"


def _uncovered(node, covered: bool, where: str) -> list[str]:
    if isinstance(node, dict):
        inside = covered or node.get("status") in ("known", "provisional")
        return [x for k, v in node.items() for x in _uncovered(v, inside, f"{where}.{k}")]
    if isinstance(node, list):
        return [x for i, v in enumerate(node) for x in _uncovered(v, covered, f"{where}[{i}]")]
    if isinstance(node, int | float) and not isinstance(node, bool) and not covered:
        return [where]
    return []


def test_every_number_carries_a_status():
    assert _uncovered(RAW, False, "") == []


def test_every_status_has_its_source_or_reason(tmp_path):
    def unsourced(d):
        d["rules"]["rounds"].pop("source")

    def unreasoned(d):
        d["houses"].pop("reason")

    assert any("rules.rounds" in p and "source" in p for p in problems_of(tmp_path, unsourced))
    assert any("houses" in p and "reason" in p for p in problems_of(tmp_path, unreasoned))


@pytest.mark.parametrize(("change", "place"), [
    (lambda d: d["helper_slots"]["value"].pop(), "helper_slots"),
    (lambda d: d["player_boards"][1]["plan"]["value"].__setitem__(
        "military", ["Medici", "Medici", "Medici", "Este"]), "player_boards[red].plan.military"),
    (lambda d: d["player_boards"][0]["plan"]["value"].__setitem__(
        "marriage", ["Medici"] * 6), "player_boards[yellow].plan.marriage"),
    (lambda d: d["assignment_slots"]["value"][1].__setitem__("sex", "male"), "yellow area"),
    (lambda d: d["alliance_tiles"]["value"]["Este"].pop(), "alliance_tiles[Este]"),
    (lambda d: d["alliance_tiles"]["value"]["Este"].__setitem__(0, 7), "alliance_tiles[Este]"),
    (lambda d: d["assignment_tiles"][6]["value"].__setitem__("meeples", "..3"),
     "assignment_tiles[6]"),
    (lambda d: d["action_slots"][0]["ring"].__setitem__("value", "pink"), "action_slots[0].ring"),
    (lambda d: d["cities"][0]["slots"].__setitem__("value", [1, 5]), "cities[Milano].slots"),
    (lambda d: d["rules"]["vp_tiles_used"].__setitem__("value", 3), "rounds"),
    (lambda d: d["career_tracks"]["slots"]["value"][2].__setitem__("rank", 9),
     "career_tracks.slots.value.2.rank"),
    (lambda d: d["bonus_tiles"][0]["value"]["effect"].__setitem__("kind", "dance"),
     "bonus_tiles.0.value.effect.kind"),
])
def test_broken_files_name_the_place(tmp_path, change, place):
    problems = problems_of(tmp_path, change)
    assert problems, "the broken file was accepted"
    assert any(place in p for p in problems), problems


def test_unreadable_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    assert "not JSON" in check_components(bad)[0]
    assert "cannot be read" in check_components(tmp_path / "missing.json")[0]


def test_known_facts_of_the_rulebook_are_in_the_tables():
    t = tables()
    assert t.cost[t.colours.index("turquoise")] == 5
    assert t.ring[t.colours.index("red")] == t.colours.index("yellow")
    assert (t.starting_florins, t.extra_florins) == (5, (1, 2, 2, 3))
    assert (t.threshold_base, t.threshold_max, t.rounds, t.max_dice) == (13, 22, 7, 4)
    assert {0, 4, 9} <= set(t.initiative_vp)
    assert len(t.tile_house) == 54 and set(t.tile_vp) <= {2, 3, 4, 5}
    assert t.career_bonus[3] == ("florins", 2, "") and t.career_bonus[5] == ("initiative", 1, "")
