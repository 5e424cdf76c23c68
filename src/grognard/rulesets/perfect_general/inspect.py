"""Questions a side may ask of its own units without deciding anything (``Ruleset.inspect``).

- ``{"kind": "path", "unit": U, "cell": C}``: the path a move of U to C would take ("smart moves", p.26),
  searched on the field as U's side knows it, exactly as the move itself is (``moves.unit_reach``).
- ``{"kind": "sight", "unit": U}``: the locations U has a line of sight to now (p.32-33: terrain, hills,
  barrages and the weather's visibility, all of which both sides know).
- ``{"kind": "units"}``: the unit data as the manual's Appendix B would have shown it (lost from the surviving
  text; the numbers of ``data/``): cost, movement, hit points, damage, defence, indirect range and the direct
  range against each target type, one row a type.

Both answer from terrain and what the side knows, never from where unseen enemy units stand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from grognard.engine import IllegalDecision

from . import moves
from .context import Ctx
from .state import PGState, Unit


def inspect(ctx: Ctx, state: PGState, seat: str, query: Mapping[str, Any]) -> dict[str, Any]:
    kind = query.get("kind")
    if kind == "units":
        return unit_data(ctx)
    unit = _own_unit(state, seat, query.get("unit"))
    if kind == "path":
        cell = query.get("cell")
        if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < ctx.board.grid.size:
            raise IllegalDecision("a path question names a location of the map: 'cell'")
        reach = moves.unit_reach(ctx, state, unit)
        if cell == unit.cell or not reach.can_reach(cell):
            raise IllegalDecision(f"{ctx.tables.units[unit.type].name} cannot reach {ctx.board.grid.label(cell)}")
        return {"kind": "path", "unit": unit.id, "cell": cell, "path": reach.path(cell)}
    if kind == "sight":
        seen = ctx.board.sight(state).seen_by([unit], ctx.board.weather(state).visibility)
        return {"kind": "sight", "unit": unit.id, "cells": np.flatnonzero(seen).tolist()}
    raise IllegalDecision(f"The Perfect General answers questions of kind 'path', 'sight' or 'units', not {kind!r}")


def unit_data(ctx: Ctx) -> dict[str, Any]:
    """Every unit type's numbers, one row each, with the direct range against each target type (fire.toml)."""
    t = ctx.tables
    fighting = [k for k, u in t.units.items() if not u.has("mine")]
    columns = ["unit", "cost", "move", "hit points", "damage", "defence", "indirect range"]
    columns += [t.units[k].code for k in fighting]  # the direct range against that target
    rows = []
    for k, u in t.units.items():
        if u.has("mine"):
            rows.append([u.name, u.cost, "", "", "", "", ""] + [""] * len(fighting))
            continue
        defence = u.defense.replace("_", " ") + (f", hit {u.exposure}%" if u.exposure != 100 else "")
        rows.append(
            [u.name, u.cost, u.move, u.hit_points, u.damage, defence, u.indirect_range or ""]
            + [t.max_range[k, target] for target in fighting]
        )
    return {
        "kind": "units",
        "title": "Unit data (the manual's Appendix B)",
        "types": [*t.units],
        "columns": columns,
        "range_from": 7,  # the columns from here are direct ranges by target
        "rows": rows,
        "note": "move: movement points over clear terrain; damage: hit points a hit takes under Partial Kill; "
        "IN, EN...: the most hexes a direct shot reaches against that target ("
        + ", ".join(f"{t.units[k].code} {t.units[k].name}" for k in fighting)
        + ")",
    }


def _own_unit(state: PGState, seat: str, uid: object) -> Unit:
    unit = state.find(uid) if isinstance(uid, str) else None
    if unit is None or unit.side != seat or unit.cell < 0 or unit.carried_by:
        raise IllegalDecision("a question names one of your own units on the map: 'unit'")
    return unit
