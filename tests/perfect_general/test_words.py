"""The Perfect General in words (issue 15 item 8): units named by what they are and where they stand, never by
an internal id, and never more than the seat may know; the manual's grammar ("an Infantry", "1 point"); a side's
unit as "the attacker's Medium Tank"."""

from grognard.rulesets.perfect_general import decisions as D
from grognard.rulesets.perfect_general.state import Phase
from grognard.server import fog


def test_passing_fire_names_the_firer_and_the_mover_by_type_and_location_not_by_id(field):
    f = field(
        [("attacker", "armored_car", "2,10"), ("defender", "medium_tank", "2,4")],
        phase=Phase.MOVEMENT,
        hit="always",
    )
    f.apply("attacker", D.Move("a1", f.cell("2,7")))
    legal = f.legal("defender")
    assert legal.suggested == D.PassingFire("a1", "d1")
    words = f.rules.describe_for(f.state, "defender", legal.suggested)
    at = f.grid.label(f.unit("a1").cell)
    assert words == f"passing fire: the Medium Tank at 2,4 fires at the enemy Armored Car at {at}"
    # what the page gets: the family's buttons and the suggested order in the same words
    core = fog.seat_core(f.game, "defender")
    texts = [t for family in core["legal"]["choices"] for t in family.get("texts", [])]
    assert words in texts and core["legal"]["suggested_text"] == words
    assert not any(uid in t for t in texts for uid in ("a1", "d1"))


def test_an_enemy_unit_the_seat_does_not_see_is_only_an_enemy_unit_p33(field):
    f = field(
        [("attacker", "medium_tank", "2,10"), ("defender", "heavy_tank", "2,4", {"spotted": False})],
    )
    fire = D.Fire("a1", "d1")
    assert f.rules.describe_for(f.state, "attacker", fire) == "the Medium Tank at 2,10 fires at an enemy unit"
    assert "Heavy Tank" in f.rules.describe_for(f.state, "defender", fire)  # its own unit
    assert f.rules.describe_for(f.state, None, fire) == (
        "the attacker's Medium Tank at 2,10 fires at the defender's Heavy Tank at 2,4"
    )


def test_ignore_pick_up_and_the_buy_confirmation_read_as_words(field):
    f = field([("attacker", "light_artillery", "3,10")])
    assert f.rules.describe_for(f.state, "attacker", D.Ignore("a1")) == "ignore the Light Artillery at 3,10 this phase"
    assert f.rules.describe_for(f.state, "attacker", D.PickUp("a1")) == "pick up the Light Artillery at 3,10"
    assert f.rules.describe(D.ConfirmPurchase(True)) == "yes, I am done buying"
    assert f.rules.describe(D.ConfirmPurchase(False)) == "no, back to buying"


def test_grammar_an_infantry_an_armored_car_and_one_point(field):
    f = field([], phase=Phase.PURCHASE)
    assert f.rules.describe(D.Buy("infantry")) == "buy an Infantry (1 point)"
    assert f.rules.describe(D.Buy("armored_car")) == "buy an Armored Car (5 points)"
    events = f.apply("attacker", D.Buy("engineer"))
    assert [e.text for e in events] == ["attacker buys an Engineer"]


def test_events_name_a_sides_unit_as_the_attackers_and_the_winner_of_an_assault_by_its_role(field):
    f = field(
        [
            ("attacker", "heavy_tank", "5,8"),
            ("defender", "infantry", "5,9", {"spotted": True}),
            ("attacker", "infantry", "13,10"),
        ],
        phase=Phase.MOVEMENT,
        hit="always",
    )
    events = f.apply("attacker", D.Assault("a1", f.cell("5,9")))
    texts = [e.text for e in events if e.kind == "assault"]
    assert texts == [
        "the attacker's Heavy Tank close assaults the defender's Infantry at 5,9: 95%, the assaulting Heavy Tank wins"
    ]
