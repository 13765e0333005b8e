"""The library against a real liveactivityd and a real mosquitto: every result comes from the
desktop's receipts."""

import time

import pytest

from liveactivities_push import (BadDeviceToken, EndPayload, InvalidArgs, PayloadTooLarge, PushClient, ReceiptTimeout, StartPayload,
                                 Stale, Unregistered, UnknownKind, UpdatePayload)


def test_start_update_end_each_with_its_result(broker, desktop):
    gone = []
    with PushClient("127.0.0.1", broker.port, on_unregistered=lambda token, activity: gone.append((token, activity))) as push:
        started = push.start(desktop.push_to_start_token(), StartPayload("generic", {"title": "Delivery", "body": "On its way"}))
        assert started.applied and started.event == "start" and started.activity
        assert desktop.get(started.activity)["state"]["body"] == "On its way"
        assert started.push_token is None, "no token asked"

        # Start, update and end all by push: the start's result carries the new activity's token.
        first = int(time.time()) + 1
        delivery = push.start(desktop.push_to_start_token(),
                              StartPayload("generic", {"title": "Parcel"}, input_push_token=True, timestamp=first))
        assert delivery.applied and len(delivery.push_token or "") == 32
        assert desktop.get(delivery.activity)["push-token"] == delivery.push_token
        assert push.send(delivery.push_token, UpdatePayload({"body": "Out for delivery"}, timestamp=first + 1)).applied
        assert push.send(delivery.push_token, EndPayload({"body": "Delivered"}, timestamp=first + 2)).applied
        assert desktop.get(delivery.activity)["status"] == "ended"

        token = desktop.start_with_token("build", "title=Build 1234", "progress=0.1")
        now = int(time.time())
        result = push.send(token, UpdatePayload({"body": "Linking", "progress": 0.8}, timestamp=now))
        assert result.applied and result.activity == "build" and result.timestamp == now
        assert desktop.get("build")["state"]["body"] == "Linking"

        with pytest.raises(Stale):
            push.send(token, UpdatePayload({"body": "old"}, timestamp=now - 60))
        with pytest.raises(InvalidArgs) as refused:
            push.send(token, UpdatePayload({"progress": "abc"}, timestamp=now + 1))
        assert "progress" in str(refused.value) and refused.value.result.applied is False

        ended = push.send(token, EndPayload({"body": "Passed", "progress": 1}, timestamp=now + 2))
        assert ended.applied and ended.event == "end"
        assert desktop.get("build")["status"] == "ended"
        assert wait(lambda: (token, "build") in gone), gone
        with pytest.raises(Unregistered):
            push.send(token, UpdatePayload({"body": "late"}))


def test_the_user_ending_the_activity_unregisters_its_token(broker, desktop):
    with PushClient("127.0.0.1", broker.port) as push:
        token = desktop.start_with_token("focus1", "title=Focus")
        desktop.cli("end", "focus1")
        assert wait(lambda: token in push.unregistered), "the sender learns the token is dead"
        with pytest.raises(Unregistered):
            push.send(token, UpdatePayload({"body": "x"}))


def test_batch_and_channel(broker, desktop):
    with PushClient("127.0.0.1", broker.port) as push:
        tokens = [desktop.start_with_token(f"a{i}", "title=A") for i in range(3)]
        desktop.cli("start", "generic", "title=Match", "--push-channel", "match-7", "--id", "m1")
        desktop.cli("start", "generic", "title=Match", "--push-channel", "match-7", "--id", "m2")
        results = push.send_batch([(token, UpdatePayload({"body": f"n{i}"})) for i, token in enumerate(tokens)]
                                  + [(tokens[0], UpdatePayload({"progress": 7}))])
        assert [r.applied for r in results] == [True, True, True, False]
        assert results[3].reason == "InvalidArgs" and isinstance(results[3].error, InvalidArgs)
        assert [desktop.get(f"a{i}")["state"]["body"] for i in range(3)] == ["n0", "n1", "n2"]
        # A channel subscription is confirmed a few ms after Start without an event: retry until both follow.
        for attempt in range(20):
            channel = push.send_channel("match-7", UpdatePayload({"body": "1 : 0"}, timestamp=int(time.time()) + attempt),
                                        followers=2, timeout=2)
            if len(channel) == 2:
                break
        assert sorted(r.activity for r in channel) == ["m1", "m2"] and all(r.applied for r in channel)


def test_errors_named_like_apns(broker, desktop):
    with PushClient("127.0.0.1", broker.port) as push:
        with pytest.raises(BadDeviceToken):
            push.send("not-a-token", UpdatePayload({"body": "x"}))
        with pytest.raises(PayloadTooLarge):
            push.send("0" * 32, UpdatePayload({"body": "x" * 5000}))
        with pytest.raises(UnknownKind):
            push.start(desktop.push_to_start_token(), StartPayload("no-such-kind", {"title": "x"}))
        # A token no desktop subscribes to reaches nobody: no receipt, the library's timeout says so.
        with pytest.raises(ReceiptTimeout):
            push.start("f" * 32, StartPayload("generic", {"title": "x"}), timeout=0.5)


def wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_the_ten_line_server_of_docs_push_md(broker, desktop, capsys):
    import os
    import re
    docs = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "push.md")).read()
    block = re.search(r"A ten-line server:\n\n```python\n(.*?)```", docs, re.S).group(1)
    assert len(block.strip().splitlines()) <= 11, block
    source = block.replace('"broker.example.org", 1883', f'"127.0.0.1", {broker.port}')
    token = desktop.start_with_token("build", "title=Build")
    tokens = [desktop.start_with_token(f"t{i}", "title=T") for i in range(2)]
    desktop.cli("start", "generic", "title=Match", "--push-channel", "match-7", "--id", "match")
    # The channel's subscription is confirmed without an event: its token's confirmation comes after.
    desktop.start_with_token("aftermatch", "title=x")
    exec(compile(source, "docs/push.md", "exec"), {"start_token": desktop.push_to_start_token(), "token": token, "tokens": tokens})
    assert desktop.get("build")["state"]["body"] == "Linking"
    assert "t0 True" in capsys.readouterr().out
    assert desktop.get("match")["state"]["body"] == "1 : 0"
