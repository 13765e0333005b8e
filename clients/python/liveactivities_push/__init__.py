"""Send Live Activity messages to liveactivityd desktops over MQTT, APNs-style.

    from liveactivities_push import PushClient, UpdatePayload
    with PushClient("broker.example.org") as push:
        result = push.send(token, UpdatePayload({"body": "Linking", "progress": 0.8}))
"""

from .client import PushClient, Result
from .errors import (BadDeviceToken, BadPayload, Duplicate, InvalidArgs, NotActive, PayloadTooLarge, PushError,
                     ReceiptTimeout, Stale, TooManyActivities, UnknownKind, Unregistered, error_for)
from .payloads import Alert, EndPayload, StartPayload, UpdatePayload
from .digest import message_digest

__all__ = [
    "PushClient", "Result", "StartPayload", "UpdatePayload", "EndPayload", "Alert", "message_digest",
    "PushError", "BadDeviceToken", "BadPayload", "Duplicate", "InvalidArgs", "NotActive", "PayloadTooLarge",
    "ReceiptTimeout", "Stale", "TooManyActivities", "UnknownKind", "Unregistered", "error_for",
]
