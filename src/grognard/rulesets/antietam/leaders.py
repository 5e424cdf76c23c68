"""The advanced game's leaders (§IA7.12) and command control (§IA4): where the division and corps leaders ride,
their transfer (L), wounds and replacements, bonuses, and the command control trace of each turn."""

from __future__ import annotations

from dataclasses import replace

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step

from .ctx import ENEMY, Ctx
from .state import AntietamState


def formation_units(ctx: Ctx, k: int) -> list[int]:
    """The units leader ``k`` commands: his division's, or his corps's (§IA7.12 "any unit within their formation")."""
    lead = ctx.tables.leaders[k]
    key = "division" if lead["rank"] == "division" else "corps"
    return [i for i, s in enumerate(ctx.board.specs) if getattr(s, key) == lead["name"] and s.side == lead["side"]]


def initial(ctx: Ctx) -> tuple[int, ...]:
    """Each leader with the unit units.toml names (``with``; DERIVED, the manual does not say)."""
    if not ctx.has["leaders"]:
        return ()
    return tuple(ctx.board.index.get(str(lead["with"]), -1) for lead in ctx.tables.leaders)


def brigade_key(ctx: Ctx, i: int) -> str:
    """The name under which unit ``i``'s brigade leader falls (``brigade:SIDE:NAME``; "" with no brigade)."""
    s = ctx.board.spec(i)
    return f"brigade:{s.side}:{s.brigade}" if s.brigade else ""


def brigade_leader_alive(ctx: Ctx, state: AntietamState, i: int) -> bool:
    """Disruption Recovery Table "Brigade leader alive" ("In the INTERMEDIATE GAME, the leader is assumed to be
    alive", and so in the basic game)."""
    return not ctx.has["leaders"] or brigade_key(ctx, i) not in state.fallen


def riding(ctx: Ctx, state: AntietamState, i: int) -> list[int]:
    """The leaders (by index) riding with unit ``i``."""
    return [k for k, j in enumerate(state.leaders) if j == i]


def bonus(ctx: Ctx, state: AntietamState, i: int) -> int:
    """§IA7.12 "Each leader has a combat bonus": the brigade leader's (with both halves) plus the division and
    corps leaders riding with the unit (AMB-14: they add); a replacement has none (AMB-12)."""
    spec = ctx.board.spec(i)
    alive = spec.brigade and brigade_leader_alive(ctx, state, i)
    total = ctx.brigade_bonus.get((spec.side, spec.brigade), 0) if alive else 0
    for k in riding(ctx, state, i):
        lead = ctx.tables.leaders[k]
        # the IX Corps chart note: Cox "was first in line to command the corps" and brings his own bonus
        total += int(lead.get("replacement_bonus", 0) if lead["name"] in state.fallen else lead["bonus"])
    return total


def transfer_targets(ctx: Ctx, state: AntietamState, k: int) -> list[int]:
    """The units leader ``k`` may join: any unit of his formation on the map but his own."""
    here = state.leaders[k]
    return [i for i in formation_units(ctx, k) if state.units[i].cell >= 0 and i != here]


def transfer_refusal(ctx: Ctx, state: AntietamState, leader: str, to: object) -> IllegalDecision | None:
    k = ctx.leader_index.get(leader, -1)
    if not ctx.has["leaders"] or k < 0:
        return IllegalDecision(f"{leader!r} is not a leader (advanced game)", "§IA7.12")
    if state.leaders[k] != state.accessed:
        return IllegalDecision(f"{leader} is not with the unit picked up", "§IA7.12")
    j = ctx.board.index.get(to) if isinstance(to, str) else None
    if j is None or j not in transfer_targets(ctx, state, k):
        return IllegalDecision(f"{leader} may go only to a unit of his formation on the map", "§IA7.12")
    return None


def transfer(ctx: Ctx, state: AntietamState, leader: str, to: str) -> AntietamState:
    k = ctx.leader_index[leader]
    leaders = list(state.leaders)
    leaders[k] = ctx.board.index[to]
    return replace(state, leaders=tuple(leaders))


def wound_checks(ctx: Ctx, state: AntietamState, i: int, casualties: int, men: int, step: Step) -> AntietamState:
    """§IA7.12 "Each time a unit with a leader takes casualties, there is a check to see if a leader is wounded"
    (AMB-12: 50 x casualties / men percent), the brigade leader (with both halves) and the division and corps
    leaders riding with the unit. A fallen leader is replaced at once by a subordinate with no bonus (reading)
    and "the unit it is attached to gains five fatigue points"."""
    side = ctx.board.side(i)
    names = [str(ctx.tables.leaders[k]["name"]) for k in riding(ctx, state, i)]
    for name in [brigade_key(ctx, i), *names]:
        if not name or name in state.fallen:
            continue
        pct = min(100, ctx.rules["leaders"]["wound_percent_scale"] * casualties // max(1, men))
        if pct and step.chance(pct, f"{name} is hit", (side, ENEMY[side])):
            u = state.units[i]
            gain = ctx.recovery["fatigue_gain"]["leader_dies"]
            state = replace(state.with_unit(i, replace(u, fatigue=u.fatigue + gain)), fallen=(*state.fallen, name))
            who = name.split(":")[-1]
            ctx.tell(step, "leader", f"{who} is struck down; a subordinate takes command (§IA7.12)", leader=who)
    return state


def leader_points(ctx: Ctx, state: AntietamState, side: str) -> int:
    """§IA10.1 (advanced game) points for the enemy's leaders lost: brigade 100, division 300, Union corps 500,
    Confederate corps 1000."""
    if not ctx.has["leader_points"]:
        return 0
    p = ctx.rules["victory"]["points"]
    total: int = p["brigade_leader"] * sum(f.startswith(f"brigade:{ENEMY[side]}:") for f in state.fallen)
    for lead in ctx.tables.leaders:
        if lead["name"] in state.fallen and lead["side"] == ENEMY[side]:
            key = "division_leader" if lead["rank"] == "division" else f"{lead['side']}_corps_leader"
            total += int(p[key])
    return total


def automatic(ctx: Ctx, i: int) -> bool:
    """§IA4.3 (and the Ammo Eligibility Table's flat row): cavalry, cavalry artillery, Confederate artillery and
    Evans's brigade."""
    s = ctx.board.spec(i)
    return s.type == "cavalry" or s.horse_artillery or (s.artillery and s.side == "confederate") or s.brigade == "Evans"


def ammo_eligibility(ctx: Ctx, state: AntietamState, i: int) -> int | None:
    """AMMO ELIGIBILITY TABLE (advanced game, §IA7.12 "Divisional leaders affect the resupply of ammo"): the
    percent chance to go on to the Resupply Table by range to the division leader (Union corps artillery: its
    corps leader, reading); None: "Auto - Resupply", the table skipped; no leader on the map: none."""
    e = ctx.recovery["ammo_eligibility"]
    if automatic(ctx, i):
        return int(e["flat_percent"])
    s = ctx.board.spec(i)
    k = ctx.leader_index.get(s.division or s.corps, -1)
    j = state.leaders[k] if k >= 0 and state.leaders else -1
    if j < 0 or state.units[j].cell < 0:
        return 0
    d = int(ctx.board.dist[state.units[i].cell, state.units[j].cell])
    pct = e["by_range"].get(str(d), 0)
    return None if pct == "auto" else int(pct)


# --- §IA4 command control --------------------------------------------------------------------------------------
def reseat(ctx: Ctx, state: AntietamState) -> AntietamState:
    """A leader whose unit is gone joins the first unit of his formation on the map (reading)."""
    leaders = list(state.leaders)
    for k, i in enumerate(leaders):
        if i >= 0 and state.units[i].cell >= 0:
            continue
        if i >= 0 and state.units[i].cell == -1:
            continue  # he arrives with his unit
        on = [j for j in formation_units(ctx, k) if state.units[j].cell >= 0]
        leaders[k] = on[0] if on else -1
    return replace(state, leaders=tuple(leaders))


def command_control(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§IA4.1-4.3 the trace of each unit on the map; AMB-9: distances in squares (king moves); a Union division
    leader out of command control puts his division out but for units within 1 square of their corps leader."""
    state = reseat(ctx, state)
    cc = ctx.rules["command_control"]
    board = ctx.board
    where = {str(lead["name"]): state.leaders[k] for k, lead in enumerate(ctx.tables.leaders)}

    def cell_of(name: str) -> int:
        i = where.get(name, -1)
        return state.units[i].cell if i >= 0 else -1

    def near(a: int, name: str, reach: int) -> bool:
        c = cell_of(name)
        return c >= 0 and int(board.dist[a, c]) <= reach

    division_ok = {}
    for lead in ctx.tables.leaders:
        if lead["rank"] == "division":
            name, corps = str(lead["name"]), str(lead.get("corps", ""))
            union = lead["side"] == "union"
            c = cell_of(name)
            # §IA4.2 "within six squares of their appropriate corps commanders for the Union and Unlimited for the
            # Confederate"; a division with no corps (Stuart, Pleasonton) is its own chain
            division_ok[name] = not union or not corps or (c >= 0 and near(c, corps, cc["union_division_to_corps"]))
    out = []
    for i in ctx.side_units(state, "union") + ctx.side_units(state, "confederate"):
        s = board.spec(i)
        a = state.units[i].cell
        union = s.side == "union"
        if automatic(ctx, i):
            continue  # §IA4.3
        if s.artillery:  # §IA4.1 "Union artillery must be within six squares of their corps leader"
            ok = near(a, s.corps, cc["union_artillery_to_corps"])
        elif not s.division:
            ok = True
        else:
            reach = cc["union_to_division"] if union else cc["confederate_to_division"]
            ok = division_ok.get(s.division, True) and near(a, s.division, reach)
            ok = ok or bool(s.corps and near(a, s.corps, cc["to_corps_commander"]))
        if not ok:
            out.append(i)
    for side in ("union", "confederate"):
        n = sum(board.side(i) == side for i in out)
        if n:
            ctx.tell(step, "command", f"{n} of your units are out of command control (§IA4)", (side,), count=n)
    return replace(state, out_of_command=tuple(sorted(out)))
