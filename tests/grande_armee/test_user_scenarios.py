"""A scenario of the user's own is saved whole, even under a bundled scenario's name (the save must replay on a
machine that does not have the file)."""

import shutil

from grognard.engine import new_game
from grognard.persistence.saves import save_document
from grognard.rulesets.grande_armee import GrandeArmee
from grognard.rulesets.grande_armee.scenario import SCENARIO_DIR


def test_a_users_scenario_file_named_like_a_bundled_one_is_embedded_in_the_save(tmp_path):
    copy = tmp_path / "1_austrian_challenge.json"
    shutil.copy(SCENARIO_DIR / copy.name, copy)
    users = save_document(new_game(GrandeArmee, str(copy), None, 1), snapshot=False)
    bundled = save_document(new_game(GrandeArmee, "1_austrian_challenge", None, 1), snapshot=False)
    assert "document" in users["scenario"] and bundled["scenario"] == {"id": "1_austrian_challenge"}
