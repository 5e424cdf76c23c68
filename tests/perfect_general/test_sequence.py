"""The turn sequence (PG p.14-15, p.18-19): each phase the attacker's part then the defender's; indirect fire
between the two plot phases; stationary artillery plotted in one turn firing in the next; one shot a turn
whichever way it is spent."""

from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.state import Phase, Plot

ENDS = {
    Phase.MOBILE_PLOT: D.EndPlot(),
    Phase.ARTILLERY_PLOT: D.EndPlot(),
    Phase.FIRST_FIRE: D.EndFire(),
    Phase.MOVEMENT: D.EndMovement(),
    Phase.SECOND_FIRE: D.EndFire(),
}


def _armies(field, **kw):
    """Both sides with mobile and light artillery and a tank in sight of each other, so no part is empty."""
    return field(
        [
            ("attacker", "mobile_artillery", "2,9", {"spotted": True}),
            ("attacker", "light_artillery", "3,10", {"spotted": True}),
            ("attacker", "medium_tank", "5,9", {"spotted": True}),
            ("defender", "mobile_artillery", "8,6", {"spotted": True}),
            ("defender", "light_artillery", "10,6", {"spotted": True}),
            ("defender", "medium_tank", "5,6", {"spotted": True}),
        ],
        phase=Phase.MOBILE_PLOT,
        **kw,
    )


def test_a_turn_runs_the_phases_in_the_manuals_order_attacker_first_p18_p19(field):
    f = _armies(field)
    seen = []
    while f.state.turn == 1:
        st = f.state
        seen.append((st.phase.value, st.side))
        f.apply(st.side, ENDS[st.phase])
    assert seen == [
        (phase.value, side)
        for phase in (Phase.MOBILE_PLOT, Phase.ARTILLERY_PLOT, Phase.FIRST_FIRE, Phase.MOVEMENT, Phase.SECOND_FIRE)
        for side in ("attacker", "defender")
    ]
    # scoring ended turn 1; turn 2 opens with the defender's reinforcement purchase (the field's D 6 @ 2, p.18)
    assert (f.state.turn, f.state.phase, f.state.side, f.state.region) == (2, Phase.PURCHASE, "defender", "reinforce")
    assert f.state.history == ((0, 0),)


def test_indirect_fire_resolves_after_both_mobile_plots_and_before_the_artillery_plot_p18_p19(field):
    f = _armies(field)
    f.apply("attacker", D.Plot("a1", False, f.cell("9,8")))  # an empty location
    assert [p.unit for p in f.state.plots] == ["a1"]  # plotted, not yet fired
    events = f.apply("defender", D.EndPlot())
    strikes = [e for e in events if e.kind == "strike"]
    assert [e.data["side"] for e in strikes] == ["attacker"]
    assert (f.state.phase, f.state.side) == (Phase.ARTILLERY_PLOT, "attacker") and not f.state.plots


def test_stationary_artillery_plotted_last_turn_fires_in_this_turns_indirect_fire_phase_p19_p29(field):
    f = _armies(field, turn=2)
    f.set(plots=(Plot("a2", "attacker", "light_artillery", f.cell("12,2"), False, 2),))
    f.apply("attacker", D.EndPlot())
    assert f.state.plots  # still waiting: the indirect fire phase follows the mobile artillery plot
    events = f.apply("defender", D.EndPlot())
    assert [e.data["unit_type"] for e in events if e.kind == "strike"] == ["light_artillery"]
    assert f.unit("a2").fired  # its one shot of the turn
    assert D.Plot("a2", False, f.cell("9,4")) in f.legal("attacker")  # and it may plot for turn 3


def test_a_unit_that_took_passing_fire_has_used_its_shot_for_the_second_fire_phase_p15(field):
    f = field(
        [
            ("attacker", "medium_tank", "2,10"),
            ("defender", "heavy_tank", "2,4"),
            ("attacker", "medium_tank", "9,10", {"spotted": True}),
            ("defender", "medium_tank", "9,6", {"fired": True}),
        ],
        phase=Phase.MOVEMENT,
        hit="always",
        kill="partial",
    )
    f.apply("attacker", D.Move("a1", f.cell("2,9")))
    f.apply("defender", D.PassingFire("a1", "d1"))
    assert f.unit("d1").fired
    parts = []
    while f.state.turn == 1:
        parts.append((f.state.phase, f.state.side))
        f.apply(f.game.turn().seat, ENDS[f.state.phase] if f.state.offer is None else D.HoldFire())
    # the attacker's tanks still have their shots; the defender's two have spent theirs, so its part of the
    # second direct fire phase has nobody to prompt and passes by itself (p.12)
    assert (Phase.SECOND_FIRE, "attacker") in parts and (Phase.SECOND_FIRE, "defender") not in parts


def test_return_fire_and_close_assault_use_the_units_shot_p15(field):
    f = field(
        [
            ("attacker", "medium_tank", "5,10", {"spotted": True}),
            ("defender", "heavy_tank", "5,6", {"spotted": True}),
            ("attacker", "medium_tank", "3,10", {"spotted": True}),
        ],
        hit="always",
        kill="partial",
    )
    f.apply("attacker", D.Fire("a1", "d1"))
    f.apply("defender", D.ReturnFire("d1", "a2"))
    assert f.unit("d1").fired and f.unit("a1").fired
    g = field(
        [
            ("attacker", "heavy_tank", "5,8"),
            ("defender", "infantry", "5,9", {"spotted": True}),
            ("attacker", "infantry", "13,10"),  # keeps the movement phase open after the assault
        ],
        phase=Phase.MOVEMENT,
        hit="always",
    )
    g.apply("attacker", D.Assault("a1", g.cell("5,9")))
    assert g.unit("a1").fired
