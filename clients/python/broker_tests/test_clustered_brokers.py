"""The daemon and the sender library against clustered and other MQTT brokers (the slow
tier: scripts/test-brokers). A RabbitMQ cluster with the MQTT plugin: the daemon is on node A,
the sender on node B; node A is stopped, the daemon moves to B under the same client id and
every message acknowledged meanwhile arrives once, in order. NATS with JetStream: the whole
start, update, end cycle with receipts."""

import time

import pytest

from brokers import Nats, RabbitCluster
from desktop import Desktop, wait_until
from liveactivities_push import EndPayload, PushClient, StartPayload, Unregistered, UpdatePayload


@pytest.fixture
def cluster(tmp_path):
    cluster = RabbitCluster(str(tmp_path / "rabbit"))
    yield cluster
    cluster.stop()


def test_rabbitmq_cluster_node_a_stops_and_nothing_acknowledged_is_lost(cluster):
    desktop = Desktop(f"{cluster.url('a')}, {cluster.url('b')}")
    try:
        assert f"push: connected to 127.0.0.1:{cluster.mqtt_ports['a']}" in desktop.daemon_log()
        with PushClient("127.0.0.1", cluster.mqtt_ports["b"], timeout=30) as push:
            started = push.start(desktop.push_to_start_token(), StartPayload("generic", {"title": "Delivery"}, input_push_token=True))
            assert started.applied and started.activity and started.push_token
            assert push.send(started.push_token, UpdatePayload({"body": "Out for delivery"})).applied
            token = desktop.start_with_token("build", "title=Build 1234", "progress=0.1")
            now = int(time.time())
            assert push.send(token, UpdatePayload({"body": "compiling"}, timestamp=now)).applied

            cluster.stop_node("a")
            # Published on B while the daemon's node is gone: queued in its (mirrored) session.
            results = push.send_batch([(token, UpdatePayload({"body": f"step {i}", "progress": i / 10}, timestamp=now + 1 + i))
                                       for i in range(1, 6)], timeout=60)
            assert [(r.applied, r.reason) for r in results] == [(True, "")] * 5, "each applied, none stale: in order"
            assert not [r for r in push.unmatched if r.reason == "Duplicate"], "each arrived once"
            assert desktop.get("build")["state"]["body"] == "step 5"
            assert f"push: connected to 127.0.0.1:{cluster.mqtt_ports['b']}" in desktop.daemon_log()
            assert desktop.push_status() == "connected"

            ended = push.send(token, EndPayload({"body": "Passed"}, timestamp=now + 10))
            assert ended.applied and desktop.get("build")["status"] == "ended"
            assert wait_until(lambda: token in push.unregistered, 30), "the sender learns the token is dead"
            with pytest.raises(Unregistered):
                push.send(token, UpdatePayload({"body": "late"}))

            # The user ends an activity on the desktop: the sender on node B learns its token is dead.
            focus = desktop.start_with_token("focus", "title=Focus")
            assert push.send(focus, UpdatePayload({"body": "25 min"})).applied
            desktop.cli("end", "focus")
            assert wait_until(lambda: focus in push.unregistered, 30)
    finally:
        desktop.stop()


def test_nats_with_jetstream(tmp_path):
    nats = Nats(str(tmp_path))
    desktop = Desktop(nats.url)
    try:
        with PushClient("127.0.0.1", nats.mqtt_port, timeout=20) as push:
            started = push.start(desktop.push_to_start_token(), StartPayload("generic", {"title": "Delivery"}))
            assert started.applied
            token = desktop.start_with_token("build", "title=Build")
            now = int(time.time())
            assert push.send(token, UpdatePayload({"body": "linking"}, timestamp=now)).applied
            assert desktop.get("build")["state"]["body"] == "linking"
            desktop.cli("start", "generic", "title=Match", "--push-channel", "match_7", "--id", "m1")
            for attempt in range(20):
                got = push.send_channel("match_7", UpdatePayload({"body": "1 : 0"}, timestamp=now + attempt), followers=1, timeout=2)
                if got:
                    break
            assert got[0].applied and got[0].activity == "m1"
            assert push.send(token, EndPayload({"body": "done"}, timestamp=now + 30)).applied
            assert wait_until(lambda: token in push.unregistered, 20)
    finally:
        desktop.stop()
        nats.stop()
