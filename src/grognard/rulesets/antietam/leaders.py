"""The advanced game's leaders (§IA7.12) and command control (§IA4): where the division and corps leaders ride,
their transfer (L), wounds and replacements, bonuses, and the command control trace of each turn."""

from __future__ import annotations

from grognard.engine.errors import IllegalDecision
from grognard.engine.events import Step
from grognard.engine.records import replace

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
    alive", and so in the basic game). A brigade leader promoted to a division has left his brigade (reading: the
    brigade's "dead" rows, as no one is said to replace him)."""
    key = brigade_key(ctx, i)
    return not ctx.has["leaders"] or (key not in state.fallen and key not in commanders(ctx, state))


# --- §IA7.12 the chain of command ------------------------------------------------------------------------------
# A command is a row of the leaders table (a division or a corps); its commander is named by his leaders-table
# name, the corps's printed replacement (Cox), or a brigade key (a brigade leader promoted); "" when no one is left.
def commanders(ctx: Ctx, state: AntietamState) -> tuple[str, ...]:
    """Who holds each division and corps command now (each his own leader until the chain is first updated)."""
    return state.commanders or tuple(str(lead["name"]) for lead in ctx.tables.leaders)


def person_bonus(ctx: Ctx, name: str) -> int:
    """A commander's own bonus as the OOB prints it: a brigade leader's on his brigade's A row, the corps
    replacement's beside the corps leader's ("Burnside (20)/ Cox (19)")."""
    if name.startswith("brigade:"):
        _, side, brigade = name.split(":", 2)
        return ctx.brigade_bonus.get((side, brigade), 0)
    k = ctx.leader_index.get(name)
    if k is not None:
        return int(ctx.tables.leaders[k]["bonus"])
    return next(int(lead["replacement_bonus"]) for lead in ctx.tables.leaders if lead.get("replacement") == name)


def _successor(ctx: Ctx, state: AntietamState, k: int, held: tuple[str, ...]) -> tuple[str, int, int]:
    """§IA7.12 "A corps commander that is wounded will be replaced by one of the divisional commanders in his corps.
    That divisional commander will be replaced by a brigade leader of his division." Reading: the first in OOB
    order who is on the map (the IX Corps's Cox first, the chart's note); returns (name, the unit he rides with,
    the command he leaves or -1), or ("", -1, -1) when no one is left."""
    lead = ctx.tables.leaders[k]
    gone = set(state.fallen) | set(held)
    on = [j for j in range(len(state.units)) if state.units[j].cell >= 0]
    if lead["rank"] == "corps":
        spare = str(lead.get("replacement", ""))
        if spare and spare not in gone and state.leaders[k] >= 0:
            return spare, state.leaders[k], -1  # Cox rides with the corps's headquarters unit
        for d, sub in enumerate(ctx.tables.leaders):
            j = state.leaders[d]
            if sub.get("corps") == lead["name"] and held[d] and j >= 0 and state.units[j].cell >= 0:
                return held[d], j, d  # he stays with the unit he rides with
        return "", -1, -1
    for i in on:  # his division's brigades in OOB order, the A unit first ("present at both units")
        key = brigade_key(ctx, i)
        s = ctx.board.spec(i)
        if s.division == lead["name"] and s.side == lead["side"] and key and key not in gone:
            return key, i, -1
    return "", -1, -1


def promote(ctx: Ctx, state: AntietamState, k: int, step: Step) -> AntietamState:
    """The chain of command updated for the empty command ``k`` (§IA7.12): its successor takes it, and the
    division he leaves is filled in turn by one of its brigade leaders."""
    held, where = list(commanders(ctx, state)), list(state.leaders)
    while k >= 0:
        name, j, left = _successor(ctx, replace(state, leaders=tuple(where)), k, tuple(held))
        held[k], where[k] = name, j
        if name:
            who = name.split(":")[-1]
            post = ctx.tables.leaders[k]
            kind = "corps" if post["rank"] == "corps" else "division"
            ctx.tell(step, "leader", f"{who} takes command of {post['name']}'s {kind} (§IA7.12)", leader=who)
        if left >= 0:
            held[left] = ""
        k = left
    return replace(state, commanders=tuple(held), leaders=tuple(where))


def riding(ctx: Ctx, state: AntietamState, i: int) -> list[int]:
    """The leaders (by index) riding with unit ``i``."""
    return [k for k, j in enumerate(state.leaders) if j == i]


def bonus(ctx: Ctx, state: AntietamState, i: int) -> int:
    """§IA7.12 "Each leader has a combat bonus": the brigade leader's (with both halves) plus the division and
    corps commanders riding with the unit (AMB-14: they add); a promoted leader brings his own (as Cox his 19)."""
    spec = ctx.board.spec(i)
    alive = spec.brigade and brigade_leader_alive(ctx, state, i)
    total = ctx.brigade_bonus.get((spec.side, spec.brigade), 0) if alive else 0
    held = commanders(ctx, state)
    return total + sum(person_bonus(ctx, held[k]) for k in riding(ctx, state, i) if held[k])


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
    (AMB-12: 50 x casualties / men percent), the brigade leader (with both halves, while he leads it) and each
    commander riding with the unit, promoted ones as well. "When a leader dies, the unit it is attached to gains
    five fatigue points", and the chain of command is updated (``promote``); a brigade is not given a new leader."""
    side = ctx.board.side(i)
    held = commanders(ctx, state)
    # each leader with the unit once, in the command he holds when his check comes (a promotion may move him)
    for name in [brigade_key(ctx, i) if brigade_leader_alive(ctx, state, i) else ""] + [
        held[k] for k in riding(ctx, state, i)
    ]:
        if not name:
            continue
        now = commanders(ctx, state)
        k = now.index(name) if name in now else -1
        pct = min(100, ctx.rules["leaders"]["wound_percent_scale"] * casualties // max(1, men))
        if pct and step.chance(pct, f"{name} is hit", (side, ENEMY[side])):
            u = state.units[i]
            gain = ctx.recovery["fatigue_gain"]["leader_dies"]
            state = replace(state.with_unit(i, replace(u, fatigue=u.fatigue + gain)), fallen=(*state.fallen, name))
            who = name.split(":")[-1]
            ctx.tell(step, "leader", f"{who} is struck down (§IA7.12)", leader=who)
            if k >= 0:
                state = promote(ctx, state, k, step)
    return state


def leader_points(ctx: Ctx, state: AntietamState, side: str) -> int:
    """§IA10.1 (advanced game) points for the enemy's leaders lost: brigade 100, division 300, Union corps 500,
    Confederate corps 1000; each leader by the rank the OOB prints him at (reading: a promoted leader's acting
    command does not change his price; Cox is printed in the IX Corps's column)."""
    if not ctx.has["leader_points"]:
        return 0
    p = ctx.rules["victory"]["points"]
    enemy = ENEMY[side]
    total: int = p["brigade_leader"] * sum(f.startswith(f"brigade:{enemy}:") for f in state.fallen)
    for lead in ctx.tables.leaders:
        if lead["side"] != enemy:
            continue
        key = "division_leader" if lead["rank"] == "division" else f"{enemy}_corps_leader"
        lost = [lead["name"], lead.get("replacement")]
        total += int(p[key]) * sum(name in state.fallen for name in lost if name)
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
def reseat(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """A leader whose unit is gone joins the first unit of his formation on the map (reading); a command left
    empty is offered again to the chain (a brigade leader of the division may have come onto the map)."""
    leaders = list(state.leaders)
    held = commanders(ctx, state)
    empty = []
    for k, i in enumerate(leaders):
        if not held[k]:
            empty.append(k)
            continue
        if i >= 0 and state.units[i].cell >= 0:
            continue
        if i >= 0 and state.units[i].cell == -1:
            continue  # he arrives with his unit
        on = [j for j in formation_units(ctx, k) if state.units[j].cell >= 0]
        leaders[k] = on[0] if on else -1
    state = replace(state, leaders=tuple(leaders))
    for k in sorted(empty, key=lambda k: ctx.tables.leaders[k]["rank"] == "corps"):  # divisions first
        if not commanders(ctx, state)[k]:
            state = promote(ctx, state, k, step)
    return state


def command_control(ctx: Ctx, state: AntietamState, step: Step) -> AntietamState:
    """§IA4.1-4.3 the trace of each unit on the map; AMB-9: distances in squares (king moves); a Union division
    leader out of command control puts his division out but for units within 1 square of their corps leader."""
    state = reseat(ctx, state, step)
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
