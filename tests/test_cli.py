"""The command line's exact shapes (issue 2, item 10), on the first real ruleset, The Perfect General."""

import json
import subprocess
import sys

import pytest

from grognard import rulesets
from grognard.cli.main import main

GAME, SCENARIO = "perfect_general", "simple_little_war"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """One finished computer-vs-computer game, saved (shared by the tests that only read it)."""
    path = tmp_path_factory.mktemp("saves") / "game.json"
    assert main(["simulate", GAME, SCENARIO, "--seed", "5", "--players", "random,random", "--save", str(path)]) == 0
    return path


def test_games_json_lists_each_game_with_scenarios_and_options(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    games = {g["id"]: g for g in json.loads(out)}
    pg = games[GAME]
    assert {"id", "name", "scenarios", "options"} <= pg.keys()
    assert SCENARIO in {s["id"] for s in pg["scenarios"]}
    assert all({"id", "name"} <= s.keys() for s in pg["scenarios"])
    assert {"kill", "hit", "view"} <= {o["name"] for o in pg["options"]}


def test_simulate_json_prints_one_object_with_the_outcome_and_is_deterministic(capsys):
    argv = ("simulate", GAME, SCENARIO, "--seed", "11", "--players", "random,random", "--json")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    first = json.loads(out)
    assert {"game", "scenario", "seed", "turns", "decisions", "result", "digest"} <= first.keys()
    assert (first["game"], first["scenario"], first["seed"]) == (GAME, SCENARIO, 11)
    assert first["result"]["levels"].keys() == {"attacker", "defender"}
    _, again, _ = run(capsys, *argv)
    assert json.loads(again)["digest"] == first["digest"]


def test_replay_verify_accepts_a_true_save(capsys, finished):
    code, out, _ = run(capsys, "replay", str(finished), "--verify")
    assert code == 0 and "digest matches" in out


def test_replay_verify_names_the_first_decision_that_diverges(capsys, finished, tmp_path):
    doc = json.loads(finished.read_text())
    k = len(doc["decisions"]) // 2
    log = doc["decisions"]
    other = next(i for i, e in enumerate(log) if i > k and e["decision"] != log[k]["decision"])
    doc["decisions"][k], doc["decisions"][other] = doc["decisions"][other], doc["decisions"][k]
    bad = tmp_path / "swapped.json"
    bad.write_text(json.dumps(doc))
    code, _, err = run(capsys, "replay", str(bad), "--verify")
    assert code != 0
    assert f"decision {k + 1} " in err and "diverges" in err


def test_replay_verify_rejects_a_changed_digest(capsys, finished, tmp_path):
    doc = json.loads(finished.read_text())
    doc["digest"] = "0" * 64
    bad = tmp_path / "digest.json"
    bad.write_text(json.dumps(doc))
    code, _, err = run(capsys, "replay", str(bad), "--verify")
    assert code != 0 and "digest" in err


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: text[: len(text) // 2], "truncated"),
        (lambda text: "nonsense", "corrupt save"),
        (lambda text: text.replace('"version": 2', '"version": 99'), "version 99 is not supported"),
        (lambda text: "[1, 2, 3]", "not a grognard save"),
    ],
    ids=["truncated", "garbage", "future-version", "not-a-save"],
)
def test_replay_of_a_damaged_file_is_a_clear_error_not_a_crash(capsys, finished, tmp_path, damage, message):
    bad = tmp_path / "bad.json"
    bad.write_text(damage(finished.read_text()))
    code, _, err = run(capsys, "replay", str(bad), "--verify")
    assert code == 2 and message in err and "Traceback" not in err


def test_a_missing_file_and_an_unknown_game_are_clear_errors(capsys, tmp_path):
    code, _, err = run(capsys, "replay", str(tmp_path / "nothing.json"))
    assert code == 2 and "no such save file" in err
    code, _, err = run(capsys, "simulate", "perfect_generl", SCENARIO)
    assert code == 2 and "perfect_general" in err  # the nearest name is offered


def test_show_renders_the_map_as_text(capsys):
    code, out, _ = run(capsys, "show", GAME, SCENARIO)
    assert code == 0 and "Moscow" in out and len(out.splitlines()) > 24


def test_python_dash_m_grognard_runs_the_same_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "grognard", "games"], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0 and "The Perfect General" in done.stdout


def test_match_game_plays_both_halves_with_sides_swapped_and_adds_the_points_p3(capsys):
    argv = ("simulate", GAME, SCENARIO, "--seed", "3", "--players", "greedy,random", "--match", "--json")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    match = json.loads(out)
    first, second = match["games"]
    assert (first["player1_side"], second["player1_side"]) == ("attacker", "defender")
    totals = match["result"]["scores"]
    p1 = first["result"]["scores"]["attacker"] + second["result"]["scores"]["defender"]
    p2 = first["result"]["scores"]["defender"] + second["result"]["scores"]["attacker"]
    assert totals == {"player1": p1, "player2": p2}
    expected = "player1" if p1 > p2 else "player2" if p2 > p1 else None
    assert match["result"]["winner"] == expected


@pytest.mark.parametrize(
    ("game", "scenario"),
    [(GAME, SCENARIO), ("grande_armee", "1_austrian_challenge"), ("antietam", "5_ix_corps"), ("kursk", "first_day")],
)
def test_simulate_json_reports_the_turns_played_of_every_game(capsys, game, scenario):
    """``turns``: the scenario's turns that were played (La Grande Armée's turns are its seasons, §2.7); a game
    played to its end has played all of them."""
    code, out, _ = run(capsys, "simulate", game, scenario, "--seed", "3", "--players", "random", "--json")
    outcome = json.loads(out)
    scenario_turns = {s["id"]: s["turns"] for s in rulesets.get(game).describe_game()["scenarios"]}[scenario]
    assert code == 0 and isinstance(outcome["turns"], int) and 1 <= outcome["turns"] <= scenario_turns
    if game == "grande_armee":  # no sudden death: every season is played
        assert outcome["turns"] == scenario_turns


def test_the_match_game_of_a_ruleset_without_one_is_refused_in_one_line(capsys):
    code, _, err = run(capsys, "simulate", "grande_armee", "1_austrian_challenge", "--match")
    assert code == 2 and err.strip() == "grognard: La Grande Armée has no match game"
