"""The global-backtracking diagnostic (star.diagnostics, paper App. F failure analysis) on real trajectories:
oracle trajectories (star.teacher.solve) on every feasible validation task and on the train gold plans are never
flagged; constructed failures (a dead-end city swapped into the solver's route, planned by an agent that ignores
the violated constraint, trajectory written with real sandbox calls) are flagged with the right constraint."""
import copy, math

import pytest

from star.agent import Trajectory
from star.diagnostics import (BacktrackDiagnosis, accommodation_checks, backtracking_failure, backtracking_rate,
                              chosen_route, dead_end_cities, diagnose_backtracking, diagnoses_frame, retrieved_options,
                              route_plan, unsatisfiable)
from star.evaluator import evaluate_plan
from star.sandbox import Sandbox
from star.synthesis import find_plan
from star.tasks import load_tasks
from star.teacher import read_observation, solve


@pytest.fixture(scope="module")
def sb(): return Sandbox()

@pytest.fixture(scope="module")
def val(): return {t.id: t for t in load_tasks("validation")}

@pytest.fixture(scope="module")
def paper_case(sb, val):
    "Paper App. F: validation-144 (Milwaukee -> 2 Michigan cities, private room allowing parties, no flight)."
    t = val["validation-144"]
    plan, cost = route_plan(t, ["Detroit", "Grand Rapids"], [2, 2], relax=("room type",))
    return t, plan, solve(t, sb, plan=plan)


def test_the_paper_case_is_the_validation_task(val):
    t = val["validation-144"]
    assert (t.org, t.dest, t.days, t.people_number, t.budget) == ("Milwaukee", "Michigan", 5, 2, 1700)
    assert t.local_constraint == {"house rule": "parties", "cuisine": None, "room type": "private room", "transportation": "no flight"}


def test_grand_rapids_is_a_dead_end(sb, val):
    gr = read_observation("SearchAccommodation", sb.call("SearchAccommodation", {"city": "Grand Rapids"}))
    assert len(gr) == 6                                   # the paper's observation lists 6 too
    assert unsatisfiable(gr, accommodation_checks(2, "private room", "parties")) == [("minimum nights", "room type")]
    assert unsatisfiable(gr, accommodation_checks(2, "private room")) == [("minimum nights", "room type")]
    assert unsatisfiable(gr, accommodation_checks(2, None, "parties")) == []
    assert route_plan(val["validation-144"], ["Detroit", "Grand Rapids"], [2, 2]) is None
    assert "Grand Rapids" in dead_end_cities(val["validation-144"], 2)
    assert "Detroit" not in dead_end_cities(val["validation-144"], 2)


def test_paper_case_is_flagged(paper_case):
    t, plan, traj = paper_case
    r = evaluate_plan(t, plan)
    assert not r.success and r.hard["valid_room_type"] is False and r.commonsense_macro
    d = diagnose_backtracking(t, traj)                    # plan read back from the trajectory's answer
    assert d.flagged and d.delivered and d.success is False
    assert (d.route, d.nights, d.alternative) == (["Detroit", "Grand Rapids"], [2, 2], ["Detroit", "Muskegon"])
    assert d.constraint == "minimum nights+room type"
    [de] = d.dead_ends
    assert (de.where, de.confirmed) == ("Grand Rapids", True)
    assert de.evidence["listed"] == 6 and de.evidence["database_satisfying"] == 0
    assert de.evidence["chosen"] is not None and "room type" in de.evidence["satisfying"]
    assert "Grand Rapids" in d.reason and "Detroit -> Muskegon" in d.reason
    row = d.to_dict()
    assert row["flagged"] and row["constraint"] == "minimum nights+room type" and row["dead_ends"][0]["where"] == "Grand Rapids"
    # the diagnosis only reads messages: a plain message list gives the same verdict
    assert diagnose_backtracking(t, traj.messages).to_dict() == row


def test_unsearched_city_is_not_a_backtracking_failure(paper_case):
    t, plan, traj = paper_case
    m = traj.messages
    from star.agent import parse_turn
    i = next(i for i, x in enumerate(m) if x["role"] == "assistant" and (p := parse_turn(x["content"])).tool_name
             == "SearchAccommodation" and p.arguments == {"city": "Grand Rapids"})
    d = diagnose_backtracking(t, m[:i] + m[i + 2:], plan=plan)
    assert not d.flagged and d.success is False and d.unobserved == ["accommodation in Grand Rapids"]


def test_no_alternative_means_no_flag(paper_case):
    t, plan, traj = paper_case
    d = diagnose_backtracking(t, traj, alternative=False)
    assert not d.flagged and d.dead_ends[0].confirmed and d.alternative is None


def test_undelivered_plan(val, sb):
    t = val["validation-144"]
    traj = Trajectory([{"role": "system", "content": "s"}, {"role": "user", "content": t.query}], "turn_limit")
    d = diagnose_backtracking(t, traj)
    assert (d.delivered, d.flagged, d.success) == (False, False, None)


def test_oracle_trajectories_are_never_flagged(val, sb):
    diags = [diagnose_backtracking(t, tr) for t in val.values() if (tr := solve(t, sb)) is not None]
    assert len(diags) >= 150
    assert all(d.success for d in diags)
    assert not any(d.flagged or d.dead_ends or d.unobserved for d in diags)
    assert math.isnan(backtracking_rate(diags)) and backtracking_rate(diags, over="all") == 0.0


def test_gold_train_trajectories_have_no_dead_end(sb):
    train = load_tasks("train")
    diags = [diagnose_backtracking(t, solve(t, sb, plan=t.annotated_plan)) for t in train]
    assert not any(d.flagged for d in diags)
    # the human gold plans meet their own constraints: nothing they chose is a dead end
    assert not any(d.dead_ends for d in diags if d.success)


def test_constructed_failures_are_flagged_with_the_right_constraint(val, sb):
    tasks = [t for t in val.values() if t.visiting_city_number > 1
             and (t.local_constraint["room type"] or t.local_constraint["house rule"])]
    built = []
    for t in tasks:
        out = backtracking_failure(t, sb)
        if out is None: continue
        traj, plan, city = out
        r = evaluate_plan(t, plan)
        violated = {k for k, c in (("room type", "valid_room_type"), ("house rule", "valid_room_rule")) if r.hard[c] is False}
        assert violated and not r.success, t.id
        d = diagnose_backtracking(t, traj, plan=plan)
        assert d.flagged, (t.id, d.reason)
        de = next(x for x in d.dead_ends if x.where == city)
        assert de.confirmed and de.evidence["database_satisfying"] == 0
        # the reported minimal unsatisfiable sets mention a constraint the plan then violated
        assert any(k in s for s in de.evidence["minimal_unsatisfiable"] for k in violated), (t.id, de.evidence, violated)
        assert d.alternative is not None and city not in d.alternative
        built.append(d)
    assert len(built) >= 25
    assert backtracking_rate(built) == 1.0
    df = diagnoses_frame(built)
    assert df.flagged.all() and df.constraint.notna().all() and len(df) == len(built)


def test_transportation_dead_end(val, sb):
    """validation-141 (Washington -> 2 cities in California) moved to the only dates with a Washington -> Los Angeles
    flight and given 'no flight': routed through Los Angeles, every leg the agent searched offers flights only. The
    dead end is real, but no route of California is reachable without flying, so backtracking cannot help: not flagged."""
    import datetime as dt
    t = copy.deepcopy(val["validation-141"])
    t.date = [(dt.date(2022, 3, 14) + dt.timedelta(i)).isoformat() for i in range(t.days)]
    t.local_constraint = {**t.local_constraint, "transportation": "no flight"}
    assert find_plan(t) is None and route_plan(t, ["Los Angeles", "San Francisco"], [2, 2]) is None
    plan, _ = route_plan(t, ["Los Angeles", "San Francisco"], [2, 2], relax=("transportation",))
    d = diagnose_backtracking(t, solve(t, sb, plan=plan, explore=0.0), plan=plan)
    assert not d.flagged and d.success is False and d.alternative is None
    [de] = d.dead_ends
    assert (de.where, de.constraint, de.confirmed) == ("route", "transportation", True)
    assert de.evidence["retrieved_modes"] == [["flight"]] * 3 and de.evidence["regimes"] == [["self-driving"], ["taxi"]]
    assert de.evidence["database_modes"][0] == ["flight"]       # Washington -> Los Angeles: flights only in the DB too
    assert "no feasible alternative" in d.reason


def test_budget_dead_end(val, sb):
    "The cheapest plan along the chosen route costs more than the budget, while another route fits."
    t = copy.copy(val["validation-144"])
    t.local_constraint = {**t.local_constraint, "room type": None, "house rule": None}
    from star.synthesis import min_cost
    cheapest = min_cost(t)
    cands = []
    for c in ("Grand Rapids", "Lansing", "Kalamazoo", "Traverse City", "Saginaw"):
        rp = route_plan(t, ["Detroit", c], [2, 2])
        if rp and rp[1] > cheapest + 50: cands.append((c, rp))
    c, (plan, cost) = cands[0]
    t.budget = int(cheapest + 10)
    d = diagnose_backtracking(t, solve(t, sb, plan=plan), plan=plan)
    assert d.flagged and d.constraint == "budget", d.reason
    ev = d.dead_ends[0].evidence
    assert ev["retrieved_min_cost"] > t.budget and ev["database_min_cost"] == pytest.approx(cost)


def test_backtracking_rate_edges():
    mk = lambda s, f: BacktrackDiagnosis("x", True, s, [], [], [], [], None, f)
    assert backtracking_rate([mk(False, True), mk(False, False), mk(True, False)]) == 0.5
    assert backtracking_rate([mk(False, True), mk(False, False), mk(True, False)], over="all") == pytest.approx(1 / 3)
    assert math.isnan(backtracking_rate([]))
    with pytest.raises(ValueError): backtracking_rate([], over="some")
