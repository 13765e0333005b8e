"""The sender: publishes `aps` messages to a desktop's tokens and channels over MQTT and
turns the desktop's delivery receipts into one result per message."""

import json
import re
import ssl
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Callable, Iterable, List, Optional, Tuple

import paho.mqtt.client as mqtt

from .digest import message_digest
from .errors import BadDeviceToken, PayloadTooLarge, PushError, ReceiptTimeout, Unregistered, error_for
from .payloads import StartPayload, _Payload

_TOKEN = re.compile(r"^[0-9a-f]{32}$")
_CHANNEL = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


@dataclass
class Result:
    """What one desktop activity made of one message (from its receipt)."""
    topic: str
    applied: bool
    reason: str = ""
    detail: str = ""
    event: str = ""
    activity: str = ""
    timestamp: Optional[float] = None
    digest: Optional[str] = None
    #: For a start with `input_push_token`: the new activity's update token, to send it updates and its end.
    push_token: Optional[str] = None

    @property
    def error(self) -> Optional[PushError]:
        """The named error when the message was not applied, else None."""
        return None if self.applied else error_for(self.reason, self.detail, self)

    def raise_for_error(self) -> "Result":
        if not self.applied:
            raise self.error
        return self


class _Waiter:
    """One sent message waiting for its receipts (one, or one per channel follower)."""

    def __init__(self, receipt_topic: str, digest: str, timestamp: float):
        self.receipt_topic = receipt_topic
        self.digest = digest
        self.timestamp = timestamp
        self.results: List[Result] = []
        self.last_arrival = 0.0


class PushClient:
    """A connection to the broker the desktops use, shaped like an APNs client.

    `send(token, payload)` for an activity's update token, `start(token, payload)` for a kind's
    push-to-start token, `send_channel(channel, payload)` for a broadcast, `send_batch(...)` for
    many at once. Each returns the desktop's result (from its receipt on
    `<prefix>/receipt/...`); `send` and `start` raise the APNs-like error when the message was
    not applied. A token whose activity ended is remembered as unregistered: sending to it again
    raises `Unregistered` at once, and `on_unregistered(token, activity_id)` is called.

    priority, expiration and collapse_id are accepted for the APNs shape; MQTT 3.1.1 cannot
    honour priority or collapse_id (every message is QoS 1 and queued in order), and an
    expiration is honoured only at send time (an expired message is not sent); see docs/push.md.
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 1883, *, prefix: str = "liveactivities",
                 username: Optional[str] = None, password: Optional[str] = None, tls: bool = False,
                 ca_file: Optional[str] = None, client_id: Optional[str] = None, max_payload_bytes: int = 4096,
                 timeout: float = 10.0, on_unregistered: Optional[Callable[[str, str], None]] = None):
        self.host, self.port, self.prefix = host, port, prefix.rstrip("/")
        self.max_payload_bytes = max_payload_bytes
        self.timeout = timeout
        self.on_unregistered = on_unregistered
        #: Tokens whose activity has ended, as the desktops said.
        self.unregistered = set()
        #: Receipts that matched no message waiting (a resend's `Duplicate`, or for another sender's message), newest last.
        self.unmatched: List[Result] = []
        self._lock = threading.Condition()
        self._waiters: List[_Waiter] = []
        self._connected = False
        self._subscribed_mid = None
        self._ready = False
        self._connect_error: Optional[str] = None
        client_id = client_id or f"liveactivities-sender-{uuid.uuid4().hex[:12]}"
        if hasattr(mqtt, "CallbackAPIVersion"):  # paho-mqtt 2
            self._mqtt = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=client_id, clean_session=True)
        else:
            self._mqtt = mqtt.Client(client_id=client_id, clean_session=True)
        if username is not None:
            self._mqtt.username_pw_set(username, password)
        if tls:
            self._mqtt.tls_set(ca_certs=ca_file, cert_reqs=ssl.CERT_REQUIRED)
        self._mqtt.on_connect = self._on_connect
        self._mqtt.on_disconnect = self._on_disconnect
        self._mqtt.on_subscribe = self._on_subscribe
        self._mqtt.on_message = self._on_message

    # Connection

    def connect(self, timeout: Optional[float] = None) -> "PushClient":
        """Connects and subscribes to the receipts; returns once the broker confirmed both."""
        self._mqtt.connect(self.host, self.port, keepalive=30)
        self._mqtt.loop_start()
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._lock:
            while not self._ready and self._connect_error is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            if not self._ready:
                self._mqtt.loop_stop()
                raise ConnectionError(self._connect_error or f"no answer from {self.host}:{self.port}")
        return self

    def close(self):
        self._mqtt.disconnect()
        self._mqtt.loop_stop()

    def __enter__(self):
        return self.connect()

    def __exit__(self, *exc):
        self.close()

    # Sending

    def send(self, token: str, payload: _Payload, *, priority: int = 10, expiration: Optional[float] = None,
             collapse_id: Optional[str] = None, timeout: Optional[float] = None) -> Result:
        """Sends an update or end to one activity's token and returns its result; raises the
        named error (`Unregistered`, `Stale`, `InvalidArgs`, …) when it was not applied."""
        waiter = self._publish("activity", token, payload, priority, expiration, collapse_id)
        return self._one(waiter, timeout).raise_for_error()

    def start(self, push_to_start_token: str, payload: StartPayload, *, priority: int = 10,
              expiration: Optional[float] = None, timeout: Optional[float] = None) -> Result:
        """Push-to-start: starts an activity of the token's kind; `result.activity` is its id and,
        with `input_push_token=True`, `result.push_token` its update token (the receipt comes once
        the desktop's broker has that token's subscription, so updates sent to it at once arrive)."""
        if not isinstance(payload, StartPayload):
            raise TypeError("start takes a StartPayload")
        waiter = self._publish("start", push_to_start_token, payload, priority, expiration, None)
        return self._one(waiter, timeout).raise_for_error()

    def send_channel(self, channel: str, payload: _Payload, *, followers: Optional[int] = None,
                     timeout: Optional[float] = None, settle: float = 0.5) -> List[Result]:
        """Broadcasts on a channel; returns one result per following activity (of every
        desktop on this prefix): once `followers` results arrived, else `settle` seconds after
        the last one. Raises ReceiptTimeout when none arrived in time."""
        if not _CHANNEL.match(channel or ""):
            raise ValueError(f"channel: 1 to 64 of A-Z a-z 0-9 _ . -, got {channel!r}")
        waiter = self._publish("channel", channel, payload, 10, None, None)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._lock:
            while True:
                now = time.monotonic()
                if followers is not None and len(waiter.results) >= followers:
                    break
                if waiter.results and followers is None and now - waiter.last_arrival >= settle:
                    break
                if now >= deadline:
                    break
                self._lock.wait(min(deadline - now, settle))
            self._waiters.remove(waiter)
            if not waiter.results:
                raise ReceiptTimeout(f"no receipt for channel {channel} within the timeout")
            return list(waiter.results)

    def send_batch(self, messages: Iterable[Tuple[str, _Payload]], *, timeout: Optional[float] = None) -> List[Result]:
        """Sends every (token, payload) at once, then waits for all receipts; returns one
        result per message, in order. Nothing is raised for a refused message: read
        `result.applied` and `result.error` (`ReceiptTimeout` when no receipt came in time)."""
        waiters = []
        for token, payload in messages:
            try:
                waiters.append(self._publish("activity", token, payload, 10, None, None))
            except PushError as error:
                waiters.append(error)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        results = []
        for item in waiters:
            if isinstance(item, PushError):
                results.append(Result(topic="", applied=False, reason=item.reason, detail=item.detail))
                continue
            try:
                results.append(self._one(item, max(0.0, deadline - time.monotonic())))
            except ReceiptTimeout as error:
                results.append(Result(topic=item.receipt_topic, applied=False, reason=error.reason, detail=error.detail,
                                      timestamp=item.timestamp, digest=item.digest))
        return results

    # Inside

    def _publish(self, route: str, name: str, payload: _Payload, priority, expiration, collapse_id) -> _Waiter:
        if not isinstance(payload, _Payload):
            raise TypeError("payload: use StartPayload, UpdatePayload or EndPayload")
        if priority not in (5, 10):
            raise ValueError(f"priority: 5 or 10 as in APNs, got {priority!r}")
        if collapse_id is not None and len(collapse_id.encode()) > 64:
            raise ValueError("collapse_id: at most 64 bytes, as in APNs")
        if route != "channel" and not _TOKEN.match(name or ""):
            raise BadDeviceToken(f"a token is 32 lowercase hex digits, got {name!r}")
        if route == "activity" and name in self.unregistered:
            raise Unregistered("this token's activity has ended")
        if expiration is not None and expiration <= time.time():
            raise PushError("the message expired before it was sent (expiration is in the past)")
        data = payload.to_json()
        if len(data) > self.max_payload_bytes:
            raise PayloadTooLarge(f"the message has {len(data)} bytes; at most {self.max_payload_bytes} are accepted")
        waiter = _Waiter(f"{self.prefix}/receipt/{route}/{name}", message_digest(data), payload.timestamp)
        with self._lock:
            if not self._ready:
                raise ConnectionError("not connected: call connect() first")
            self._waiters.append(waiter)
        info = self._mqtt.publish(f"{self.prefix}/{route}/{name}", data, qos=1, retain=False)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            with self._lock:
                self._waiters.remove(waiter)
            raise ConnectionError(f"cannot publish: {mqtt.error_string(info.rc)}")
        return waiter

    def _one(self, waiter: _Waiter, timeout: Optional[float]) -> Result:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._lock:
            while not waiter.results:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            if not waiter.results:
                raise ReceiptTimeout("no receipt within the timeout: the desktop may be offline (the message stays "
                                     "queued for it) or this sender may not read the receipt topic")
            return waiter.results[0]

    # paho callbacks (its network thread)

    def _on_connect(self, client, userdata, flags, rc):
        with self._lock:
            if rc != 0:
                self._connect_error = f"the broker refused the connection: {mqtt.connack_string(rc)}"
                self._lock.notify_all()
                return
            self._connected = True
        result, mid = client.subscribe(f"{self.prefix}/receipt/#", qos=1)
        with self._lock:
            self._subscribed_mid = mid

    def _on_subscribe(self, client, userdata, mid, granted):
        with self._lock:
            if mid == self._subscribed_mid:
                if any(code >= 0x80 for code in granted):
                    self._connect_error = f"the broker refused the subscription to {self.prefix}/receipt/# (check its ACL)"
                else:
                    self._ready = True
                self._lock.notify_all()

    def _on_disconnect(self, client, userdata, rc):
        with self._lock:
            self._connected = False

    def _on_message(self, client, userdata, message):
        try:
            body = json.loads(message.payload.decode())
        except (ValueError, UnicodeDecodeError):
            return
        if not isinstance(body, dict):
            return
        result = Result(topic=message.topic, applied=bool(body.get("applied")), reason=body.get("reason") or "",
                        detail=body.get("detail") or "", event=body.get("event") or "",
                        activity=body.get("activity") or "", timestamp=body.get("timestamp"), digest=body.get("digest"),
                        push_token=body.get("push-token"))
        if result.event == "unregistered":
            self._unregistered(result)
            return
        with self._lock:
            waiter = next((w for w in self._waiters if w.receipt_topic == result.topic and
                           (w.digest == result.digest or (result.digest is None and w.timestamp == result.timestamp))
                           and not (w.results and not w.receipt_topic.startswith(f"{self.prefix}/receipt/channel/"))), None)
            if waiter is not None:
                waiter.results.append(result)
                waiter.last_arrival = time.monotonic()
                self._lock.notify_all()
            else:
                self.unmatched = (self.unmatched + [result])[-1000:]

    def _unregistered(self, result: Result):
        activity_prefix = f"{self.prefix}/receipt/activity/"
        if not result.topic.startswith(activity_prefix):
            return
        token = result.topic[len(activity_prefix):]
        with self._lock:
            self.unregistered.add(token)
            for waiter in self._waiters:
                if waiter.receipt_topic == result.topic and not waiter.results:
                    waiter.results.append(result)
            self._lock.notify_all()
        if self.on_unregistered is not None:
            self.on_unregistered(token, result.activity)
