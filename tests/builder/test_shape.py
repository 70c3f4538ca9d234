import json

import pytest

from builder.mira_configs import MIRA_FEW_SHOT_SHAPE, MIRA_SHAPE
from builder.shape import JSON, ShapeError, decode, encode, features, json_fields
from generators.jsonl import dumps
from generators.split import generate, typed_slots


@pytest.fixture(scope="module")
def instances():
    slots = typed_slots(1, 1, (1, 3))
    return list(generate(slots, 7, few_shot=True))


def test_features_follow_the_shape():
    feats = features(MIRA_SHAPE)
    assert list(feats) == list(MIRA_SHAPE)
    assert feats["difficulty"].dtype == "int32" and feats["seed"].dtype == "int64"
    assert feats["global_solution"].dtype == "string"  # JSON text
    assert "agent_views[].private_data.constraints_machine" in json_fields(MIRA_SHAPE)
    assert "global_metadata" in json_fields(MIRA_SHAPE)
    assert "few_shot_examples[].answer" in json_fields(MIRA_FEW_SHOT_SHAPE)


def test_every_instance_round_trips_byte_for_byte(instances):
    for inst in instances:
        row = encode(MIRA_FEW_SHOT_SHAPE, inst)
        assert isinstance(row["agent_views"][0]["private_data"]["constraints_text"], list)
        assert json.loads(row["global_metadata"]) == inst["global_metadata"]
        assert dumps(decode(MIRA_FEW_SHOT_SHAPE, row)) == dumps(inst)
        zero = {k: v for k, v in inst.items() if k != "few_shot_examples"}
        assert dumps(decode(MIRA_SHAPE, encode(MIRA_SHAPE, zero))) == dumps(zero)


def test_shape_mismatches_name_the_field(instances):
    inst = {k: v for k, v in instances[0].items() if k != "few_shot_examples"}
    with pytest.raises(ShapeError, match=r"extra \['new_field'\]"):
        encode(MIRA_SHAPE, {**inst, "new_field": 1})
    with pytest.raises(ShapeError, match=r"missing \['question'\]"):
        encode(MIRA_SHAPE, {k: v for k, v in inst.items() if k != "question"})
    reordered = {"family": inst["family"], **{k: v for k, v in inst.items() if k != "family"}}
    with pytest.raises(ShapeError, match="field order"):
        encode(MIRA_SHAPE, reordered)
    bad_view = json.loads(json.dumps(inst))
    bad_view["agent_views"][1]["private_data"]["secret"] = 1
    with pytest.raises(ShapeError, match=r"agent_views\[1\]\.private_data"):
        encode(MIRA_SHAPE, bad_view)
    with pytest.raises(ShapeError, match="difficulty: expected int32"):
        encode(MIRA_SHAPE, {**inst, "difficulty": "1"})
    with pytest.raises(ShapeError, match="does not fit int32"):
        encode(MIRA_SHAPE, {**inst, "difficulty": 2**40})


def test_json_leaves_keep_key_order_and_big_integers():
    shape = {"x": JSON}
    value = {"z": 1, "a": [2**70, {"q": None, "b": "é"}]}
    assert dumps(decode(shape, encode(shape, {"x": value}))) == dumps({"x": value})
