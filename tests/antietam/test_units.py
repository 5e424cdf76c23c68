"""Both orders of battle (units.toml) against the manual's OOB tables, row by row and cell by cell, and against the
organisational charts' totals; the dawn set-up against the map and the stacking rules."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any

import pytest

from grognard.engine.maps import GameMap

# The manual's CONFEDERATE ORDER OF BATTLE rows, copied from the OCR'd text as printed
# (TURN OF REIN, NAME (leader bonus), MEN, WEAPON, EFF, DIV, CORPS; '"' repeats the row above).
CONFEDERATE_OOB = """
1        Law-A (13)          503    RFL     99   Hood (23)      Longstreet (46)
1        Law-B               351    RFL     97    "                "
1        Wofford-A (13)      301    RFL     99    "                "
1        Wofford-B           603    RFL     98    "                "
1        Armistead-A (15)    160    MSK     80   R.Anderson (21)   "
1        Armistead-B         261    RFL     83    "                "
1        Pryor-A (13)        350    RFL     81    "                "
1        Pryor-B             349    RFL     84    "                "
1        Wright-A (13)       351    RFL     82    "                "
1        Wright-B            302    RFL     95    "                "
1        Posey-A (15)        455    RFL     82    "                "
1        Posey-B             405    R/M     83    "                "
1        Cumming-A (10)      353    RFL     99    "                "
1        Cumming-B           354    RFL     98    "                "
1        Parham-A (9)        305    RFL     83    "                "
1        Parham-B            160    R/M     80    "                "
1        Kemper-A (19)       202    RFL     91   D.R. Jones (20)   "
1        Kemper-B            256    RFL     82    "                "
1        Garnett-A (15)      155    RFL     80    "                "
1        Garnett-B           151    RFL     82    "                "
1        Toombs-A (15)       255    RFL     98    "                "
1        Toombs-B            401    RFL     99    "                "
1        Drayton-A (13)      303    RFL     82    "                "
1        Drayton-B           160    RFL     84    "                "
1        J.Walker-A (15)     352    RFL     99    "                "
1        J.Walker-B          405    RFL     98    "                "
1        G.T.Anderson-A (13) 354    RFL     81    "                "
1        G.T.Anderson-B      451    RFL     82    "                "
1        Ransom-A (17)       751    RFL     80   J.C. Walker (19)  "
1        Ransom-B            853    RFL     71    "                "
1        Manning-A (15)      955    MSK     95    "                "
1        Manning-B          1203    RFL     81    "                "
1        Kershaw-A (17)      503    MSK     81   McLaws (19)       "
1        Kershaw-B           302    MSK     80    "                "
1        Barksdale-A (16)    453    MSK     83    "                "
1        Barksdale-B         401    R/M     91    "                "
1        Semmes-A (13)       451    MSK     90    "                "
1        Semmes-B            302    R/M     81    "                "
1        Sanders-A (7)       201    RFL     82    "                "
1        Sanders-B           203    RFL     80    "                "
*9       Pender-A (23)       351    RFL     91   A.P. Hill (33)   Jackson (49)
*9       Pender-B            303    RFL     92    "                "
*9       Gregg-A (21)        755    RFL     98    "                "
*9       Gregg-B             451    RFL     99    "                "
*9       Archer-A (15)       201    RFL     99    "                "
*9       Archer-B            203    RFL     97    "                "
*9       Branch-A (13)       451    RFL     87    "                "
*9       Branch-B            303    RFL     81    "                "
*9       Broker-A (7)        302    RFL     81    "                "
*9       Broker-B            300    RFL     83    "                "
1        Early-A (24)        605    RFL     91   Lawton (19)       "
1        Early-B             603    RFL     99    "                "
1        Hays-A (15)        302     RFL     99   Lawton (19)      Jackson (49)
1        Hays-B             203     RFL     98    "                "
1        Douglas-A (9)      651     RFL     82    "                "
1        Douglas-B          653     RFL     81    "                "
1        J.A.Walker-A (10)  401     RFL     98    "                "
1        J.A.Walker-B       352     RFL     91    "                "
1        Rodes-A (17)       352     RFL     99   D.H. Hill (18)    "
1        Rodes-B            501     RFL     95    "                "
1        G.B.Anderson-A(13) 450     RFL     81    "                "
1        G.B.Anderson-B     753     RFL     83    "                "
1        Ripley-A (13)      501     RFL     83    "                "
1        Ripley-B           851     RFL     80    "                "
1        Colquitt-A (13)    551     MSK     80    "                "
1        Colquitt-B         803     MSK     99    "                "
1        McRae-A (7)        302     RFL     63    "                "
1        McRae-B            451     RFL     61    "                "
1        Starke-A (9)       251     RFL     99   J.R. Jones (11)   "
1        Starke-B           351     RFL     97    "                "
1        Grigsby-A (7)      105     RFL     81    "                "
1        Grigsby-B          103     RFL     83    "                "
1        Warren-A (6)       203     RFL     91    "                "
1        Warren-B           252     RFL     82    "                "
1        Johnson-A (7)      202     RFL     83    "                "
1        Johnson-B          203     RFL     92    "                "
1        Evans-A (9)        153     MSK     81    IND              IND
1        Evans-B            160     MSK     83    IND              IND
2        Hampton-A (11)    1052     CRB     81   Stuart (33)       IND
2        Hampton-B          703     SHG     90    "                "
1        F.Lee-A (11)      1051     SHG     87    "                "
1        F.Lee-B            699     R/S     82    "                "
1        Munford-A (7)      351     PST     98    "                "
1        Munford-B          450     PST     81    "                "
1        Long-A              17     SM6     80   Corps Art        Longstreet
1        Long-B              17     SM6     83    "                "
1        Long-C              23     P10     79    "                "
1        Long-D              24     H12     84    "                "
1        Long-E              18     H24     81    "                "
1        Long-F              15     RG3     83    "                "
1        Jack-A              22     RG3     83    "               Jackson
*9       Jack-B              18     SM6     79    "                "
1        Jack-C              11     P10     80    "                "
1        Jack-D              17     H12     84    "                "
1        Res-A               15     SM6     83    "               R.E. Lee
1        Res-B               14     P10     82    "                "
1        Res-C               15     H12     82    "                "
1        Cavart              11     RG3     83    "                "
"""

# The manual's UNION ORDER OF BATTLE rows, as printed (the artillery rows print no DIV or CORPS).
UNION_OOB = """
1       Seymour-A (11)      400      M      80   Meade (16)      Hooker (33)
1       Seymour-B           701     R/S     87    "               "
1       Magilton-A (7)      503      M      70    "               "
1       Magilton-B          451     RFL     84    "               "
1       Anderson-A (7)      210      M      81    "               "
1       Anderson-B          450     RFL     76    "               "
1       Duryea-A (12)       501     RFL     80   Ricketts (13)    "
1       Duryea-B            503     RFL     81    "               "
1       Hartstuf-A (11)     753     RFL     90    "               "
1       Hartstuf-B          651     RFL     98    "               "
1       Christian-A (7)     251     RFL     79    "               "
1       Christian-B         402     RFL     81    "               "
1       Gibbon-A (16)       451     RFL     98   Doubleday (11)   "
1       Gibbon-B            552     RFL     99    "               "
1       Patrick-A (9)       455     RFL     79    "               "
1       Patrick-B           405     RFL     91    "               "
1       Phelps-A (9)        361     RFL     82    "               "
1       Phelps-B            263     S/R     99    "               "
1       Hoffman-A (7)       346     RFL     84    "               "
1       Hoffman-B           403     RFL     81    "               "
1       Stainbeck-A (7)     359     RFL     81   Greene (19)     Mansfield (28)
1       Stainbeck-B         251     RFL     83    "               "
1       Goodrich-A (6)      299     RFL     81    "               "
1       Goodrich-B          452     RFL     83    "               "
1       Tyndale-A (6)       400     RFL     90    "               "
1       Tyndale-B           603     RFL     76    "               "
1       Crawford-A (15)    1149     RFL     75   Williams (13)    "
1       Crawford-B         1348     RFL     72    "               "
1       Gordon-A (12)      1299     RFL     81    "               "
1       Gordon-B            948     RFL     78    "               "
2       Griffin-A (12)     1050     R/M     84   Morell (16)     Porter (21)
2       Griffin-B          1010     RFL     80    "               "
2       Barnes-A (12)       902     RFL     80    "               "
2       Barnes-B            751     RFL     75    "               "
2       Stockton-A (9)     1005     RFL     70    "               "
2       Stockton-B          953     RFL     90    "               "
1       Warren-A (4)        550     RFL     99   Sykes (13)       "
1       Warren-B            451     CRB     98    "               "
1       Buchanan-A (7)      903     RFL     92    "               "
1       Buchanan-B          905     RFL     93    "               "
1       Lovell-A (6)        651     RFL     81    "               "
1       Lovell-B            405     RFL     83    "               "
3       Hancock-A (15)     1203     RFL     84   Smith (17)      Franklin (24)
3       Hancock-B          1100     RFL     75    "               "
3       Brooks-A (13)       801     RFL     81    "               "
3       Brooks-B            803     RFL     86    "               "
3       Irwin-A (7)         853     RFL     62    "               "
3       Irwin-B             850     RFL     80    "               "
3       Newton-A (12)       801     RFL     81   Slocum (15)      "
3       Newton-B            799     RFL     79    "               "
3       Bartlett-A (9)      800     RFL     80    "               "
3       Bartlett-B          803     RFL     83    "               "
3       Torbert-A (9)       801     RFL     83    "               "
3       Torbert-B           803     RFL     82    "               "
1       Meagher-A (15)      755     R/M     98   Richadson (16)  Summer (26)
1       Meagher-B           603     RFL     99    "               "
1       Caldwell-A (12)     751     RFL     89    "               "
1       Caldwell-B          602     R/M     89    "               "
1       Brooks-A (9)        601     R/M     80    "               "
1       Brooks-B            651     RFL     86    "               "
1       Dana-A (10)         801     RFL     99   Sedgwick (17)    "
1       Dana-B             1150     RFL     78    "               "
1       Gorman-A (11)       800     R/M     90    "               "
1       Gorman-B            951     RFL     92    "               "
1       Howard-A (5)        850     R/M     41    "               "
1       Howard-B            852     RFL     62    "               "
1       Kimball-A (10)      701     RFL     97   French (13)      "
1       Kimball-B          1051     RFL     82    "               "
1       Weber-A (7)         705     RFL     78    "               "
1       Weber-B            1052     RFL     76    "               "
1       Morris-A (7)       1505     R/C     75    "               "
1       Morris-B           1453     RFL     77    "               "
1       Fairchild-A (7)     349     RFL     83   Rodman (17)     Burnside (20)/ Cox (19)
1       Fairchild-B         553     RFL     80    "               "
1       Hartland-A (6)      849     RFL     87    "               "
1       Hartland-B         1001     RFL     68    "               "
1       Christ-A (7)        649     RFL     79   Wilcox (10)      "
1       Christ-B            748     RFL     81    "               "
1       Welsh-A (6)         699     RFL     83    "               "
1       Welsh-B             901     RFL     87    "               "
1       Ferrero-A (15)      851     RFL     83   Sturgis (10)     "
1       Ferrero-B           699     RFL     81    "               "
1       Nagle-A (9)         698     RFL     83    "               "
1       Nagle-B             701     RFL     80    "               "
1       Ewing-A (7)         403     RFL     81   Scammon (9)      "
1       Ewing-B             550     RFL     80    "               "
1       Crook-A (6)        1201     RFL     79    "               "
1       Crook-B             653     RFL     81    "               "
1       Farnworth-A (7)     802     CRB     81   Pleasonton (11)  IND
1       Farnworth-B         403     RFL     83    "               "
1       Davis-A (6)         301     CRB     98    "               "
1       Davis-B             299     CRB     83    "               "
1       Rush-A (6)          303     CRB     82    "               "
1       Rush-B              301     PST     99    "               "
1       McReynolds-A (6)    303     CRB     61    "               "
1       McReynolds-B        300     PST     60    "               "
1       Whiting (6)         402     CRB     89    "               "
1       I Corps-A            26     N12     80
1       I Corps-B            19     RG3     79
1       II Corps-A           18     P10     83
1       II Corps-B           22     N12     81
1       V Corps-A            28     N12     98
1       V Corps-B            30     P20     98
3       VI Corps-A           28     RG3     80
3       VI Corps-B           12     N12     81
1       IX Corps-A           19     H12     79
1       IX Corps-B           29     P10     80
1       XII Corps-A          18     RG3     83
1       XII Corps-B          16     P10     84
1       Cav-A                10     N12     93
1       Cav-B                12     RG3     93
"""

ROW = re.compile(r"^(\*?)(\d+)\s+(.+?)\s+(\d+)\s+(\S+)\s+(\d+)\s*(.*)$")

# AMB-30: the Union OOB's "M" is the table's MSK and "S/R" its R/S.
WEAPON_CODES = {"M": "MSK", "S/R": "R/S"}
# The organisational charts' spelling, used for the leaders the OOB misprints.
CHART_SPELLING = {"Richadson": "Richardson", "Summer": "Sumner", "J.C. Walker": "J.G. Walker"}
# The Union artillery rows name their corps only in the unit name; the Union chart gives each corps' leader.
UNION_ARTILLERY = {
    "I Corps": "Hooker",
    "II Corps": "Sumner",
    "V Corps": "Porter",
    "VI Corps": "Franklin",
    "IX Corps": "Burnside",
    "XII Corps": "Mansfield",
}


def _leader(text: str) -> tuple[str, int | None]:
    m = re.match(r"^(.*?)\s*\((\d+)\)\s*$", text.strip())
    name, bonus = (m.group(1), int(m.group(2))) if m else (text.strip(), None)
    return CHART_SPELLING.get(name, name), bonus


def printed_rows(text: str) -> list[dict[str, Any]]:
    """The OOB rows with the dittos filled in: turn, name, brigade bonus, men, weapon, eff, division, corps."""
    rows, div, corps = [], "", ""
    for line in text.strip().splitlines():
        m = ROW.match(line.strip())
        assert m, line
        star, turn, name, men, weapon, eff, rest = m.groups()
        cols = [c for c in re.split(r"\s{2,}", rest.strip()) if c] if rest.strip() else []
        if cols and cols[0] != '"':
            div = cols[0]
        if len(cols) > 1 and cols[1] != '"':
            corps = cols[1]
        uname, bonus = _leader(name)
        rows.append(
            {
                "turn": int(turn),
                "late": star == "*",
                "name": uname,
                "bonus": bonus,
                "men": int(men),
                "weapon": weapon,
                "eff": int(eff),
                "div": div if cols else "",
                "corps": corps if cols else "",
            }
        )
    return rows


def _pairs(data: Any, side: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    printed = printed_rows(CONFEDERATE_OOB if side == "confederate" else UNION_OOB)
    units = data("units")[side]["units"]
    assert len(units) == len(printed)
    return list(zip(printed, units, strict=True))


@pytest.mark.parametrize("side", ["confederate", "union"])
def test_every_unit_cell_by_cell_against_the_oob(data: Any, side: str) -> None:
    """CONFEDERATE / UNION ORDER OF BATTLE: each row's name, men (guns), weapon (AMB-30), effectiveness, turn of
    arrival ("*9": turn 9 at the latest, possibly 7 or 8), and the brigade leader's bonus printed on the A row."""
    for row, unit in _pairs(data, side):
        assert unit["name"] == row["name"], row
        assert unit.get("men", unit.get("guns")) == row["men"], row["name"]
        assert unit["weapon"] == WEAPON_CODES.get(row["weapon"], row["weapon"]), row["name"]
        assert unit.get("printed_weapon", unit["weapon"]) == row["weapon"], row["name"]
        assert unit["eff"] == row["eff"], row["name"]
        assert unit["turn"] == row["turn"], row["name"]
        assert ("earliest_turn" in unit) == row["late"], row["name"]
        assert unit.get("brigade_bonus") == row["bonus"], row["name"]


def _formation(side: str, row: dict[str, Any]) -> tuple[str | None, str | None]:
    """The (division, corps) a printed row belongs to, as units.toml names them."""
    base = row["name"].rsplit("-", 1)[0]
    if side == "union" and base in UNION_ARTILLERY:
        return None, UNION_ARTILLERY[base]
    if base in ("Cav", "Cavart"):
        # horse artillery: the charts put it under the cavalry division ("STUART --- CAV ART 11", "PLEASONTON ---
        # CAV ART"); the Confederate OOB's dittos carry R.E. Lee's reserve down onto Cavart's row only by layout
        return ("Stuart" if side == "confederate" else "Pleasonton"), None
    div = None if row["div"] in ("IND", "Corps Art") else _leader(row["div"])[0]
    corps_text = row["corps"].split("/")[0]
    corps = None if corps_text.strip() == "IND" else _leader(corps_text)[0]
    return div, corps


@pytest.mark.parametrize("side", ["confederate", "union"])
def test_every_unit_in_its_division_and_corps(data: Any, side: str) -> None:
    """OOB DIV and CORPS columns (dittos filled): every unit's division and corps."""
    for row, unit in _pairs(data, side):
        div, corps = _formation(side, row)
        assert unit.get("division") == div, row["name"]
        if div not in ("Stuart", "Pleasonton"):  # the cavalry divisions answer to no corps (IND)
            assert unit.get("corps") == corps, row["name"]


@pytest.mark.parametrize("side", ["confederate", "union"])
def test_division_and_corps_leader_bonuses(data: Any, side: str) -> None:
    """The bonuses the OOB prints beside each division and corps leader ("numbers in parentheses represent leader
    bonuses"); IX Corps "Burnside (20)/ Cox (19)"."""
    printed: dict[str, int] = {}
    for row in printed_rows(CONFEDERATE_OOB if side == "confederate" else UNION_OOB):
        for col in (row["div"], *row["corps"].split("/")):
            name, bonus = _leader(col)
            if bonus is not None:
                printed[name] = bonus
    leaders = {ld["name"]: ld for ld in data("units")["leaders"] if ld["side"] == side}
    got = {name: ld["bonus"] for name, ld in leaders.items()}
    for ld in leaders.values():
        if "replacement" in ld:
            got[ld["replacement"]] = ld["replacement_bonus"]
    assert got == printed
    if side == "union":
        assert (leaders["Burnside"]["replacement"], leaders["Burnside"]["replacement_bonus"]) == ("Cox", 19)


def test_leaders_ride_with_a_unit_of_their_formation(data: Any) -> None:
    """§IA1.5 "Attached to units are divisional and corps commanders": each leader starts with one of his units."""
    units = {u["id"]: u for side in ("confederate", "union") for u in data("units")[side]["units"]}
    for ld in data("units")["leaders"]:
        unit = units[ld["with"]]
        key = "division" if ld["rank"] == "division" else "corps"
        assert unit[key] == ld["name"], ld["name"]
        assert unit["id"][0] == ld["side"][0]


# Organisational charts as printed: men per corps and division (guns per corps), Confederate then Union.
CONFEDERATE_CHART = {
    "Longstreet": 15586,
    "Jackson": 14575,
    "Hood": 1758,
    "R.Anderson": 3805,
    "D.R. Jones": 3445,
    "J.G. Walker": 3762,
    "McLaws": 2816,
    "A.P. Hill": 3620,
    "Lawton": 3770,
    "D.H. Hill": 5515,
    "J.R. Jones": 1670,
    "Stuart": 4306,
}
UNION_CHART = {
    "Hooker": 9016,  # printed 9010 on the army chart and 9016 on the corps chart; the rows give 9012 (AMB-29)
    "Sumner": 15834,
    "Porter": 9536,
    "Franklin": 10417,
    "Burnside": 11505,
    "Mansfield": 7108,
    "Pleasonton": 3414,
    "Meade": 2715,
    "Ricketts": 3061,
    "Doubleday": 3240,  # rows 3236 (AMB-29)
    "Richardson": 3963,
    "Sedgwick": 5404,
    "French": 6407,  # rows 6467, which the corps total 15,834 agrees with (AMB-29)
    "Morell": 5671,
    "Sykes": 3865,
    "Smith": 5610,
    "Slocum": 4807,
    "Rodman": 2752,
    "Wilcox": 2997,
    "Sturgis": 2949,
    "Scammon": 2807,
    "Greene": 2364,
    "Williams": 4744,
}
# AMB-29: the chart's misprints, and what the rows give (the rows are the data).
CHART_MISPRINTS = {"Hooker": 9012, "Doubleday": 3236, "French": 6467}
GUNS_CHART = {
    "Longstreet": 114,
    "Jackson": 68,
    "R.E. Lee": 45,  # the rows give 15 + 14 + 15 = 44 (AMB-29)
    "Stuart": 11,
    "Hooker": 45,
    "Sumner": 40,
    "Porter": 58,
    "Franklin": 40,
    "Burnside": 48,
    "Mansfield": 34,
    "Pleasonton": 22,
}


def _men_by_formation(units: list[dict[str, Any]]) -> Counter[str]:
    men: Counter[str] = Counter()
    for u in units:
        if u["type"] == "artillery":
            continue
        for key in ("division", "corps"):
            if key in u:
                men[u[key]] += u["men"]
    return men


@pytest.mark.parametrize("side", ["confederate", "union"])
def test_men_per_division_and_corps_match_the_charts(data: Any, side: str) -> None:
    """CONFEDERATE / UNION ORGANIZATIONAL CHART: each division's and corps' men, the chart's misprints excepted
    (AMB-29) and checked against the rows instead."""
    chart = CONFEDERATE_CHART if side == "confederate" else UNION_CHART
    men = _men_by_formation(data("units")[side]["units"])
    for name, total in chart.items():
        assert men[name] == CHART_MISPRINTS.get(name, total), name
    assert {n: t for n, t in chart.items() if men[n] != t} == {n: chart[n] for n in CHART_MISPRINTS if n in chart}


def test_army_totals(data: Any) -> None:
    """Charts: "XXXX 34,780 men" (Lee, with Evans's "X 313"); "XXXX Mc CLELLAN 66,824 men" (the rows give 66,826:
    the I Corps' 9,012 against the 9,010 the army chart adds, AMB-29)."""
    units = data("units")
    conf = [u for u in units["confederate"]["units"] if u["type"] != "artillery"]
    union = [u for u in units["union"]["units"] if u["type"] != "artillery"]
    assert sum(u["men"] for u in conf) == 34780
    assert sum(u["men"] for u in conf if u["brigade"] == "Evans") == 313
    assert sum(u["men"] for u in union) == 66826 == 66824 + (9012 - 9010)


def test_guns_per_corps(data: Any) -> None:
    """Charts' guns per corps; R.E. Lee's reserve prints 45 where its rows give 44 (AMB-29)."""
    guns: Counter[str] = Counter()
    for side in ("confederate", "union"):
        for u in data("units")[side]["units"]:
            if u["type"] == "artillery":
                guns[u.get("corps") or u["division"]] += u["guns"]
    expected = dict(GUNS_CHART, **{"R.E. Lee": 44})
    assert dict(guns) == expected


def test_counts_of_units(data: Any) -> None:
    """Every brigade split in an A and a B unit (§IA1.5) but Whiting's; six Longstreet, four Jackson, three
    reserve, one horse battery (39 brigades, 98 rows); 44 Union infantry brigades, 9 cavalry units, two batteries per
    corps and two horse batteries (111 rows)."""
    units = data("units")
    by_type = {s: Counter(u["type"] for u in units[s]["units"]) for s in ("confederate", "union")}
    assert by_type["confederate"] == {"infantry": 78, "cavalry": 6, "artillery": 14}
    assert by_type["union"] == {"infantry": 88, "cavalry": 9, "artillery": 14}
    halves: defaultdict[str, list[str]] = defaultdict(list)
    for s in ("confederate", "union"):
        for u in units[s]["units"]:
            if u["type"] != "artillery":
                halves[f"{s}:{u['brigade']}:{u.get('division')}"].append(u["name"][-1])
    lone = [b for b, h in halves.items() if sorted(h) != ["A", "B"]]
    assert lone == ["union:Whiting:Pleasonton"]
    assert len({u["id"] for s in ("confederate", "union") for u in units[s]["units"]}) == 98 + 111


def test_arrivals_and_entry_squares(data: Any, battlefield: GameMap) -> None:
    """OOB notes: Confederate turn 2 (Hampton) at 17,0, turn 9 (A.P. Hill and Jack-B) on the Boteler's Ford road;
    Union turn 2 (Morell) on 0,18-0,20, turn 3 (the VI Corps) on 0,25-0,32. Everyone else starts on the map."""
    units = data("units")
    late = {s: {(u["turn"], u["entry"]) for u in units[s]["units"] if u["turn"] > 1} for s in ("confederate", "union")}
    assert late["confederate"] == {(2, "confederate_entry_turn_2"), (9, "confederate_entry_turn_9")}
    assert late["union"] == {(2, "union_entry_turn_2"), (3, "union_entry_turn_3")}
    for s in ("confederate", "union"):
        for u in units[s]["units"]:
            assert ("dawn" in u) == (u["turn"] == 1), u["name"]
            if "entry" in u:
                battlefield.region(u["entry"])
    hill = {u["name"].rsplit("-", 1)[0] for u in units["confederate"]["units"] if u["turn"] == 9}
    assert hill == {"Pender", "Gregg", "Archer", "Branch", "Broker", "Jack"}
    assert all(u["earliest_turn"] == 7 for u in units["confederate"]["units"] if u["turn"] == 9)


def _bank(battlefield: GameMap) -> dict[int, str]:
    """Each land square's side of Antietam Creek (bridges and fords closed)."""
    m = battlefield
    water = {"stream", "river", "bridge", "ford"}
    side: dict[int, str] = {}
    for start, name in ((m.grid.parse("32,7"), "west"), (m.grid.parse("15,18"), "east")):
        todo = [start]
        side[start] = name
        while todo:
            c = todo.pop()
            for n in m.grid.neighbors(c):
                if n not in side and m.terrain[n] not in water:
                    side[n] = name
                    todo.append(n)
    return side


def test_dawn_setup_is_legal_and_on_the_right_bank(data: Any, battlefield: GameMap) -> None:
    """§IA2.2 historical set-up: every unit on land; stacking of §IA7.7 (two non-artillery and one artillery unit,
    one unit in a town, ford or bridge square); Confederates west of the creek, the Union east of it except the
    I and XII Corps, which crossed on the 16th (reference (c)); no unit in an enemy's zone of control."""
    m, g = battlefield, battlefield.grid
    units = data("units")
    bank = _bank(m)
    stacks: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    for s in ("confederate", "union"):
        for u in units[s]["units"]:
            if "dawn" not in u:
                continue
            c = g.parse(u["dawn"])
            stacks[c].append(dict(u, side=s))
            expected = "west" if s == "confederate" or u.get("corps") in ("Hooker", "Mansfield") else "east"
            assert bank.get(c) == expected, u["name"]
    for c, stack in stacks.items():
        kinds = Counter(u["type"] == "artillery" for u in stack)
        assert kinds[False] <= 2 and kinds[True] <= 1, g.label(c)
        if m.terrain[c] in ("town", "ford", "bridge"):
            assert len(stack) == 1, g.label(c)
        assert len({u["side"] for u in stack}) == 1, g.label(c)
    sides = {c: stack[0]["side"] for c, stack in stacks.items()}
    for c, s in sides.items():
        for n in g.neighbors(c):
            assert sides.get(n, s) == s, (g.label(c), g.label(n))
