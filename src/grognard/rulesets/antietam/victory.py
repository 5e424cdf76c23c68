"""Victory (§B7, §IA10): points for the enemy's losses, the Union's points for the squares it holds, the score
and the victory levels with the 5,000-casualty condition. The basic game has no leader points (§B7.1)."""

from __future__ import annotations

from .ctx import Ctx
from .leaders import leader_points
from .state import AntietamState

LEVEL_NAMES = {
    "union_major": "Union major victory",
    "union_minor": "Union minor victory",
    "draw": "Draw",
    "confederate_minor": "Confederate minor victory",
    "confederate_major": "Confederate major victory",
}


def loss_points(ctx: Ctx, losses: tuple[int, int, int]) -> int:
    """ "1 pt per Infantryman lost, 3 pts per Cavalryman lost, 150 pts per Artillery Gun lost"."""
    p = ctx.rules["victory"]["points"]
    men, cav, guns = losses
    return int(men * p["infantryman"] + cav * p["cavalryman"] + guns * p["gun"])


def square_points(ctx: Ctx, state: AntietamState) -> list[tuple[int, int]]:
    """Union points for each victory square (§IA10.1 "In possession of square 17,2 = 1000 (500 if in ZOC)"): the
    Union possesses a square when a Union unit stands there, or the last unit to stand there was Union and no
    Confederate stands there now (AMB-18); a possessed square scores its full points, or the parenthesised half
    when it lies in the Confederate zone of control (a Confederate unit on one of its eight squares, §B3.6: "in
    ZOC" is the enemy's ZOC, as everywhere else in the manual); a square the Union does not possess scores
    nothing."""
    occ = ctx.occupants(state)
    enemy_zoc = ctx.zoc(state, "confederate")
    out = []
    for k, (cell, full, half) in enumerate(ctx.board.victory):
        sides = {ctx.board.side(j) for j in occ.get(cell, ())}
        possessed = "confederate" not in sides and ("union" in sides or state.holders[k] == "union")
        out.append((cell, (half if cell in enemy_zoc else full) if possessed else 0))
    return out


def points(ctx: Ctx, state: AntietamState) -> tuple[int, int]:
    """(Union, Confederate) victory points: each side scores for the enemy's losses."""
    union = loss_points(ctx, state.losses[3:6]) + sum(p for _, p in square_points(ctx, state))  # type: ignore[arg-type]
    confederate = loss_points(ctx, state.losses[0:3])  # type: ignore[arg-type]
    union += leader_points(ctx, state, "union")  # §IA10.1 leader points, advanced game
    confederate += leader_points(ctx, state, "confederate")
    return union, confederate


def level(ctx: Ctx, score: int, confederate_casualties: int) -> str:
    """§IA10.2 on score = Union points - Confederate points. "The Union may attain a major or minor victory only
    if he has inflicted at least 5000 casualties on the Confederates. If he doesn't the Confederates win at
    least a minor victory." (casualties: men, infantry and cavalry, AMB-18)."""
    v = ctx.rules["victory"]
    levels = {k: r for k, r in v["levels"].items() if isinstance(r, list)}
    found: str = next(name for name, (lo, hi) in levels.items() if lo <= score <= hi)
    if confederate_casualties < v["levels"]["union_needs_casualties"] and found != "confederate_major":
        found = "confederate_minor"
    return found
