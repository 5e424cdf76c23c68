"""The public map the page draws Battle of Antietam by (``map_json``): public facts of the scenario only, drawn
north up, with the creek, the Sunken Road and the victory squares (§IA10.1) the page needs."""

from __future__ import annotations

from itertools import pairwise

from grognard.rulesets.antietam import Antietam


def test_the_page_draws_the_map_north_up_with_the_creek_and_the_victory_squares() -> None:
    rules = Antietam(Antietam.scenario_by_id("1_full_battle"))
    m = rules.map_json()
    grid = rules.ctx.board.grid
    # row 0 is the south edge and x grows westward (docs/rules/antietam.md): mirrored both ways, north is up
    assert m["grid"]["flip_columns"] and m["grid"]["flip_rows"] and m["legend"]["north"] == "up"
    creek = m["legend"]["creek"]
    assert all(grid.adjacent(a, b) for a, b in pairwise(creek))  # a line from square to square
    assert {m["terrain"][c] for c in creek} == {"stream", "ford", "bridge"}
    assert {c for c, t in enumerate(m["terrain"]) if t in ("stream", "ford", "bridge")} == set(creek)
    assert all(grid.adjacent(a, b) for a, b in pairwise(m["legend"]["sunken_road"]))
    # §IA10.1 "Sharpsburg 32,7 = 4000 (2000 if in ZOC)", the eight squares with their names
    victory = {grid.label(v["cell"]): (v["points"], v["in_zoc"]) for v in m["legend"]["victory"]}
    assert len(victory) == 8 and victory["32,7"] == (4000, 2000) and victory["33,1"] == (10000, 5000)
    assert m == Antietam(Antietam.scenario_by_id("5_ix_corps")).map_json()  # the same battlefield in every scenario
