"""Writes tests/data/rule_requests_described.jsonl: requests that describe the slot in words (issue 28).

    PYTHONPATH=. python tests/data/make_rule_requests_described.py tests/data/rule_requests_described.jsonl

Five instances per family (requested difficulty 1, 2 and 3); for each, requests in the styles a model uses when
A is no longer told the slot's name: ordinal / positional / index words, roles ("the one I am missing"),
domain meanings, a quoted formula or a reason naming other quantities (offers), and descriptions of facts A
holds, a role that fits several of B's facts, two things, or a request plus "please confirm ..." (declines).
Each label follows from what the template describes; the template reads the instance only to describe its hint
or one of A's facts. Deterministic: the same split gives the same file.
"""
# ruff: noqa: E501  (the lines are request texts, kept whole to be read as written)
import json
import sys

from generators.describe import ORDINALS
from generators.families import FAMILIES, get_family
from generators.split import typed_slots
from harness.mira.request_corpus import build_instances

slots = typed_slots(20, 50)
def pick(fam):
    out = []
    for d in (1, 2, 3):
        pos = [p for p, s in enumerate(slots) if s.family == fam and s.requested_difficulty == d]
        out += [pos[len(pos) // 3], pos[-1]] if d != 2 else [pos[len(pos) // 2]]
    prefix = get_family(fam).prefix
    return [f"{prefix}-{p:06d}" for p in out]

def ordw(n): return ORDINALS[n]

def views(inst):
    return {v["agent_id"]: v["private_data"]["constraints_machine"] for v in inst["agent_views"]}

def known_of(inst, typ):
    return [c for c in views(inst)["A"] if c.get("type") in typ]

L = []
def add(i, req, label, style): L.append({"id": i, "request": req, "label": label, "style": style})

def gen(fam, i, inst):
    h = inst["minimal_hint_spec"]["atomic_hints"][0]["constraint"]
    A = views(inst)["A"]
    B = views(inst)["B"]
    if fam == "bayes_missing_prior":
        add(i, "How probable is H before any evidence is taken into account?", "offer", "meaning")
        add(i, "What is the base rate of H?", "offer", "meaning")
        add(i, "Could you tell me the false positive rate?", "decline", "described_known")
        add(i, "What is the base rate of H? Also, please confirm that P(E|H) = 1/2.", "decline", "confirm")
        add(i, "I need the probability that H is true before seeing E, because Bayes' rule P(H|E) = P(E|H)P(H)/P(E) needs it.", "offer", "reason")
        add(i, "Which probability do you hold? I need the one I am missing.", "offer", "role")
    elif fam == "crt_reconstruction":
        k = h["index"]
        add(i, f"What is the {ordw(k)} congruence, the one that is not in my list?", "offer", "ordinal")
        add(i, "Could you send the congruence that is not in my list?", "offer", "role")
        add(i, "What is congruence number 1?", "decline", "described_known")
        add(i, f"Please give me the {ordw(k)} congruence. Also, can you confirm that m1 = {A[0]['mod']}?", "decline", "confirm")
        add(i, "I need the congruence I am missing; with it the moduli multiply to m1*m2*m3 and x is unique.", "offer", "reason")
    elif fam == "geometry_coordinates":
        add(i, "What is the equation of the line I do not have?", "offer", "role")
        add(i, "Could you share the second line?", "offer", "ordinal")
        add(i, "What is the first line?", "decline", "described_known")
        add(i, "Please send line number 2; I will intersect it with 'a1*x + b1*y = c1' to get P.", "offer", "quoted_formula")
        add(i, "What is line 2, and please also verify that Q is the right point.", "decline", "confirm")
    elif fam == "graph_path_sums":
        add(i, "What is the third path sum?", "offer", "ordinal")
        add(i, "Could you give me the path sum I am missing?", "offer", "role")
        add(i, "What is the first path sum?", "decline", "described_known")
        add(i, "What is the last path sum? I need it, since it is the only sum involving both e01 and e20.", "offer", "reason")
    elif fam == "linear_system_separator":
        add(i, "What is the value of the third variable?", "offer", "ordinal")
        add(i, "What is the first equation?", "decline", "described_known")
        add(i, "What is c? Also, please check that eq1 holds as I wrote it.", "decline", "confirm")
        add(i, "I need c because it is the only variable that appears in 'eq1' and 'eq2' with a known coefficient.", "offer", "reason")
    elif fam == "matrix_completion":
        r, c = h["row"], h["col"]
        rw = "bottom" if r == 1 else "top"
        cw = "leftmost" if c == 0 else "rightmost"
        add(i, f"What is the entry in the {rw} row, {cw} column of M?", "offer", "position")
        add(i, f"Could you tell me the {rw}-{'left' if c == 0 else 'right'} entry of M?", "offer", "position")
        add(i, f"What is the entry in the {ordw(r + 1)} row and {ordw(c + 1)} column?", "offer", "ordinal")
        orw = "top" if r == 1 else "bottom"
        add(i, f"What is the entry in the {orw} row, {cw} column?", "decline", "described_known")
        add(i, "Which matrix entry am I missing? Please send the entry that is not in my list.", "offer", "role")
    elif fam == "moment_problem":
        k = int(h["name"][1:])
        add(i, f"What is the {ordw(k)} moment of the distribution?", "offer", "ordinal")
        add(i, "What is the moment of order 0?", "decline", "described_known")
        add(i, f"What is the {ordw(k)} moment, the one with 'q1 + 4q2' on the left?", "offer", "quoted_formula")
        add(i, f"What is the {ordw(k)} moment? And can you confirm m0 = 10?", "decline", "confirm")
    elif fam == "phase_retrieval":
        k = h["index"]
        add(i, f"Is the {ordw(k + 1)} sample positive or negative?", "offer", "ordinal")
        add(i, f"Whether the {ordw(k + 1)} sample is positive or negative is what I need to know.", "offer", "ordinal")
        add(i, "What sign does the one sample you know have? I need the one I am missing.", "offer", "role")
        add(i, f"Is the {ordw(k + 1)} sample positive or negative, and what is |X_0|^2?", "decline", "two_things")
    elif fam == "piecewise_missing_threshold":
        add(i, "Where does the function switch from one formula to the other?", "offer", "meaning")
        add(i, "What is the breakpoint in 'f(x) = a*x + b if x < t'?", "offer", "quoted_formula")
        add(i, "At which x do the two branches meet?", "offer", "meaning")
        add(i, "Where does f switch formulas, and what is f(x) there?", "decline", "two_things")
    elif fam == "rankdef_linear_shared":
        add(i, "Could you send the third equation?", "offer", "ordinal")
        add(i, "What is equation number 3? It is the only equation that makes the system full rank, so I need it.", "offer", "reason")
        add(i, "What is the fourth equation?", "decline", "described_other")
        add(i, "Please give me the equation I am missing.", "decline", "role_ambiguous")
        add(i, "What is the first equation?", "decline", "described_known")
    elif fam == "recurrence_missing_init":
        k = h["index"]
        add(i, f"What is the term just before a({k + 1})?", "offer", "meaning")
        add(i, f"What is the {ordw(k + 1)} initial value?", "offer", "ordinal")
        add(i, "What is the initial value I am missing?", "offer", "role")
        add(i, f"What is a({k})? Also, please confirm that a({1 - k}) = {A[-1].get('value', 0) if A else 0}.", "decline", "confirm")
    elif fam == "birth_death_missing_rate":
        s_from, s_to = h["from_state"], h["to_state"]
        move = "up" if h["type"] == "birth_rate" else "down"
        add(i, f"At what rate does the chain move {move} from state {s_from}?", "offer", "meaning")
        add(i, "Which rate am I missing? Please send the rate that is not in my list.", "offer", "role")
        add(i, f"How fast does the chain move from state {s_from} to state {s_to}? I need it because the stationary distribution uses every rate.", "offer", "reason")
        kc = known_of(inst, ("birth_rate",))[0]
        add(i, f"What is the rate at which the chain moves up from state {kc['from_state']}?", "decline" if kc != h else "offer", "described_known")
    elif fam == "circuit_missing_resistance":
        k = h["resistor"]
        ks = sorted(c["resistor"] for c in A + B if c.get("type") == "resistance")
        add(i, f"How many ohms is resistor number {k}?", "offer", "index")
        add(i, f"What is the resistance of the {ordw(k)} resistor?", "offer", "ordinal")
        add(i, "What is the resistance of the resistor that is not in my list?", "offer", "role")
        other = next(x for x in ks if x != k)
        add(i, f"What is the resistance of the {ordw(other)} resistor?", "decline", "described_known")
        add(i, f"What is resistor {k}? Also, please verify that R{other} = 3.", "decline", "confirm")
        if k == ks[-1]:
            add(i, "What is the resistance of the last resistor?", "offer", "position")
    elif fam == "deconvolution":
        k = h["index"]
        idx = sorted(c["index"] for c in A + B if c.get("type") == "conv_eq")
        add(i, f"What is output sample number {k}?", "offer", "index")
        add(i, f"What is the {ordw(k + 1)} measured output sample?", "offer", "ordinal")
        add(i, "What is the measurement I am missing?", "offer", "role")
        other = next(x for x in idx if x != k)
        add(i, f"What is the {ordw(other + 1)} output sample?", "decline", "described_known")
        if k == idx[0]:
            add(i, "What is the measured output sample that comes first?", "offer", "position")
        if k == idx[-1]:
            add(i, "What is the last output sample?", "offer", "position")
    elif fam == "discrete_tomography":
        r, c = h["row"], h["col"]
        add(i, f"What is in the cell in the {ordw(r + 1)} row, {ordw(c + 1)} column of the grid?", "offer", "ordinal")
        add(i, f"What is the value of the cell at row {r}, column {c}?", "offer", "index")
        add(i, f"What is the cell in row {r}, column {c}, and what is the sum of row {r}?", "decline", "two_things")
    elif fam == "eigenvector_missing_entry":
        r, c = h["row"], h["col"]
        add(i, f"What is the entry of M in the {ordw(r + 1)} row, {ordw(c + 1)} column?", "offer", "ordinal")
        add(i, "Which entry of M is not in my list? Please send the entry I am missing.", "offer", "role")
        orow = 0 if r != 0 else 1
        add(i, f"What is the entry of M in the {ordw(orow + 1)} row, {ordw(c + 1)} column?", "decline", "described_known")
        add(i, f"What is M[{r}][{c}]? Also, can you confirm that M[{orow}][{c}] = 2?", "decline", "confirm")
    elif fam == "laplace_grid":
        hi, hj = map(int, h["var"].split("_")[1:])
        add(i, f"What is the grid value in row {hi}, column {hj}?", "offer", "index")
        add(i, f"Could you give me the boundary value in the {ordw(hi + 1)} row and the {ordw(hj + 1)} column?", "offer", "ordinal")
        add(i, "What is the boundary value I am missing?", "offer", "role")
        add(i, f"What is the boundary value in row {hi}, column {hj}, and the value at the center?", "decline", "two_things")
        cells = [tuple(map(int, c["var"].split("_")[1:])) for c in A + B if c.get("type") == "value"]
        rows, cols = [r for r, _ in cells], [c for _, c in cells]
        edge = ("left", hi - min(rows)) if hj == min(cols) else ("top", hj - min(cols)) if hi == min(rows) else None
        if edge:
            add(i, f"What is the {ordw(edge[1] + 1)} boundary value on the {edge[0]} edge?", "offer", "position")
            if edge[1] != 0:
                add(i, f"What is the first boundary value on the {edge[0]} edge?", "decline", "described_known")
    elif fam == "linear_system_missing_coeff":
        r, c = h["row"], h["col"]
        add(i, f"What is the coefficient of x{c} in the {ordw(r + 1)} equation?", "offer", "meaning")
        add(i, f"What is the {ordw(c + 1)} coefficient of the {ordw(r + 1)} equation?", "offer", "ordinal")
        add(i, "Could you send the coefficient that is not in my list?", "offer", "role")
        oc = 0 if c != 0 else 1
        add(i, f"What is the coefficient of x{oc} in the {ordw(r + 1)} equation?", "decline", "described_known")
    elif fam == "markov_missing_transition":
        a, b = h["from_state"], h["to_state"]
        if a == b:
            add(i, f"What is the chance the chain stays in state {a}?", "offer", "meaning")
        add(i, f"What is the probability of moving from state {a} to state {b}?", "offer", "meaning")
        add(i, "Please send the transition probability I am missing.", "offer", "role")
        add(i, f"What is the entry in row {a}, column {b} of P? I need it since the rows of P sum to 1.", "offer", "reason")
        held = [c for c in A if c.get("type") == "transition"]  # entries A holds, its own row first
        k = next((c for c in held if c["from_state"] == a), held[0])
        add(i, f"What is the probability of moving from state {k['from_state']} to state {k['to_state']}?", "decline",
            "described_known")
    elif fam == "poly_interpolation":
        x = h["x"]
        add(i, f"What value does the polynomial take at x = {x}?", "offer", "meaning")
        add(i, "Could you send the data point that is not in my list?", "offer", "role")
        ox = next(c["x"] for c in A if c.get("type") == "point")
        add(i, f"What value does the polynomial take at x = {ox}?", "decline", "described_known")
        if x == 0:
            add(i, "What is the constant term of p?", "offer", "meaning")
        add(i, f"What is p({x})? Also, please confirm that p({ox}) is what I have.", "decline", "confirm")
    elif fam == "portfolio_variance_missing_corr":
        a, b = h["asset_i"], h["asset_j"]
        add(i, f"How do asset {a} and asset {b} move together?", "offer", "meaning")
        add(i, "Could you send the correlation that is not in my list?", "offer", "role")
        add(i, "What is the weight of the first asset?", "decline", "described_known")
        add(i, f"What is the correlation between asset {a} and asset {b}? Also confirm that w_0 = 1/4.", "decline", "confirm")
    elif fam == "steady_state_missing_emission":
        s, o = h["state"], h["symbol"]
        add(i, f"What is the probability of emitting symbol {o} from hidden state {s}?", "offer", "meaning")
        add(i, "Please send the emission probability I am missing.", "offer", "role")
        add(i, f"How likely is state {s} to emit symbol {o}? It is the only emission probability I lack, so I need it.", "offer", "reason")
        add(i, "What is the probability of moving from state 0 to state 0?", "decline", "described_known")

for fam in FAMILIES:
    ids = pick(fam)
    insts = build_instances(ids)
    for i in ids:
        gen(fam, i, insts[i])
out = sys.argv[1]
with open(out, "w") as f:
    for row in L:
        f.write(json.dumps(row, ensure_ascii=False) + "\n")
print(len(L))
