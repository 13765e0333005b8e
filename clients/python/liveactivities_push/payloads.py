"""Typed builders for the `aps` payloads of start, update and end.

A builder refuses, before anything is sent, what the desktop would refuse by its form:
content-state or attributes that are not flat objects of strings, numbers and booleans, a
timestamp that is not unix seconds, a channel id of the wrong form. The timestamp is always
set (now, in whole seconds, unless given)."""

import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Dict, Mapping, Optional, Union

from .errors import BadPayload

Scalar = Union[str, int, float, bool]
_CHANNEL = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
#: Timestamps past this (year 2286) are milliseconds or nonsense, not unix seconds.
_LATEST_SECONDS = 10_000_000_000


def _flat(name: str, values: Optional[Mapping[str, Scalar]]) -> Dict[str, Scalar]:
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        raise BadPayload(f"{name}: expected a mapping of strings, numbers and booleans, got {type(values).__name__}")
    out = {}
    for key, value in values.items():
        if not isinstance(key, str) or not key:
            raise BadPayload(f"{name}: keys are non-empty strings, got {key!r}")
        if isinstance(value, float) and not math.isfinite(value):
            raise BadPayload(f"{name}.{key}: {value} is not a finite number")
        if not isinstance(value, (str, int, float, bool)):
            raise BadPayload(f"{name}.{key}: expected a string, number or boolean, got {type(value).__name__} "
                             "(content-state and attributes are flat: no nested objects, lists or None)")
        out[key] = value
    return out


def _seconds(name: str, value: Optional[float]) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadPayload(f"{name}: expected unix seconds, got {value!r}")
    if value >= _LATEST_SECONDS:
        raise BadPayload(f"{name}: {value} looks like milliseconds; expected unix seconds")
    return value


def _timestamp(value: Optional[float]) -> float:
    stamp = _seconds("timestamp", value)
    if stamp is None:
        return int(time.time())
    if stamp <= 0:
        raise BadPayload(f"timestamp: expected unix seconds after 1970, got {value!r}")
    return stamp


@dataclass(frozen=True)
class Alert:
    """An update's alert: the card pops up again with this text (and `sound`, "default" or a sound name)."""
    title: str = ""
    body: str = ""
    sound: Optional[str] = None

    def to_dict(self) -> dict:
        out = {"title": self.title, "body": self.body}
        if self.sound is not None:
            out["sound"] = self.sound
        return out


class _Payload:
    event = ""

    def aps(self) -> dict:
        raise NotImplementedError

    def to_json(self) -> bytes:
        """The message's bytes: compact JSON, keys in a stable order."""
        return json.dumps({"aps": self.aps()}, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()


@dataclass
class StartPayload(_Payload):
    """Starts an activity of kind `attributes_type` through the kind's push-to-start token.
    `input_push_token`: the new activity gets its own update token (read it on the desktop);
    `input_push_channel`: it follows that broadcast channel."""
    attributes_type: str
    content_state: Mapping[str, Scalar]
    attributes: Mapping[str, Scalar] = field(default_factory=dict)
    timestamp: Optional[float] = None
    stale_date: Optional[float] = None
    relevance_score: Optional[float] = None
    input_push_token: bool = False
    input_push_channel: Optional[str] = None
    event = "start"

    def __post_init__(self):
        if not isinstance(self.attributes_type, str) or not self.attributes_type:
            raise BadPayload("attributes_type: the kind to start is required")
        self.content_state = _flat("content-state", self.content_state)
        self.attributes = _flat("attributes", self.attributes)
        self.timestamp = _timestamp(self.timestamp)
        self.stale_date = _seconds("stale-date", self.stale_date)
        if self.input_push_channel is not None and not _CHANNEL.match(self.input_push_channel):
            raise BadPayload(f"input-push-channel: 1 to 64 of A-Z a-z 0-9 _ . -, got {self.input_push_channel!r}")

    def aps(self) -> dict:
        aps = {"timestamp": self.timestamp, "event": "start", "attributes-type": self.attributes_type,
               "attributes": dict(self.attributes), "content-state": dict(self.content_state)}
        if self.stale_date is not None:
            aps["stale-date"] = self.stale_date
        if self.relevance_score is not None:
            aps["relevance-score"] = self.relevance_score
        if self.input_push_token:
            aps["input-push-token"] = 1
        if self.input_push_channel is not None:
            aps["input-push-channel"] = self.input_push_channel
        return aps


@dataclass
class UpdatePayload(_Payload):
    """Changes the activity's state (only the keys given); an `alert` pops the card up again."""
    content_state: Mapping[str, Scalar]
    timestamp: Optional[float] = None
    stale_date: Optional[float] = None
    relevance_score: Optional[float] = None
    alert: Optional[Alert] = None
    event = "update"

    def __post_init__(self):
        self.content_state = _flat("content-state", self.content_state)
        self.timestamp = _timestamp(self.timestamp)
        self.stale_date = _seconds("stale-date", self.stale_date)

    def aps(self) -> dict:
        aps = {"timestamp": self.timestamp, "event": "update", "content-state": dict(self.content_state)}
        if self.stale_date is not None:
            aps["stale-date"] = self.stale_date
        if self.relevance_score is not None:
            aps["relevance-score"] = self.relevance_score
        if self.alert is not None:
            aps["alert"] = self.alert.to_dict()
        return aps


@dataclass
class EndPayload(_Payload):
    """Ends the activity with its final state. `dismissal_date`: when the card goes away (unix
    seconds; 0: at once; None: the desktop's default)."""
    content_state: Mapping[str, Scalar] = field(default_factory=dict)
    timestamp: Optional[float] = None
    dismissal_date: Optional[float] = None
    event = "end"

    def __post_init__(self):
        self.content_state = _flat("content-state", self.content_state)
        self.timestamp = _timestamp(self.timestamp)
        if self.dismissal_date is not None and self.dismissal_date != 0:
            self.dismissal_date = _seconds("dismissal-date", self.dismissal_date)

    def aps(self) -> dict:
        aps = {"timestamp": self.timestamp, "event": "end", "content-state": dict(self.content_state)}
        if self.dismissal_date is not None:
            aps["dismissal-date"] = self.dismissal_date
        return aps
