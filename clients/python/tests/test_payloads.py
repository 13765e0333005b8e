"""The builders refuse what the desktop would refuse by its form, before anything is sent."""

import json
import time

import pytest

from liveactivities_push import Alert, BadPayload, EndPayload, StartPayload, UpdatePayload, message_digest


def test_timestamp_is_always_set_in_seconds():
    before = int(time.time())
    aps = json.loads(UpdatePayload({"body": "x"}).to_json())["aps"]
    assert aps["event"] == "update" and before <= aps["timestamp"] <= before + 2


@pytest.mark.parametrize("state", [{"a": {"b": 1}}, {"a": [1]}, {"a": None}, {"a": float("nan")}, {"": 1}, [("a", 1)]])
def test_content_state_is_flat(state):
    with pytest.raises(BadPayload):
        UpdatePayload(state)


@pytest.mark.parametrize("stamp", [1764000000000, -5, float("inf"), "now", True])
def test_timestamp_must_be_unix_seconds(stamp):
    with pytest.raises(BadPayload):
        EndPayload({}, timestamp=stamp)


def test_payload_shapes():
    start = json.loads(StartPayload("generic", {"title": "T"}, attributes={"n": 1}, timestamp=10, input_push_token=True,
                                    input_push_channel="match-7").to_json())["aps"]
    assert start == {"timestamp": 10, "event": "start", "attributes-type": "generic", "attributes": {"n": 1},
                     "content-state": {"title": "T"}, "input-push-token": 1, "input-push-channel": "match-7"}
    update = json.loads(UpdatePayload({"p": 0.5}, timestamp=11, alert=Alert("A", "B", "default")).to_json())["aps"]
    assert update["alert"] == {"title": "A", "body": "B", "sound": "default"}
    end = json.loads(EndPayload({"body": "done"}, timestamp=12, dismissal_date=0).to_json())["aps"]
    assert end == {"timestamp": 12, "event": "end", "content-state": {"body": "done"}, "dismissal-date": 0}
    with pytest.raises(BadPayload):
        StartPayload("generic", {}, input_push_channel="bad/channel")


def test_digest_matches_the_desktops():
    # FNV-1a with the two offsets of PushMessageDigest; the end-to-end tests match every receipt by it.
    assert message_digest(b"") == "cbf29ce4842223256c62272e07bb0142"
    assert len(message_digest(b"hello")) == 32 and message_digest(b"hello") != message_digest(b"hellp")
