"""Errors named like APNs's reasons, raised for a message the desktop did not apply.

Each carries `reason` (the name the desktop's receipt gives), `detail` (its text) and the
`result` when there was a receipt."""


class PushError(Exception):
    """A message was not applied. The subclass names why, as APNs would."""

    reason = "PushError"

    def __init__(self, detail: str = "", result=None):
        super().__init__(f"{self.reason}: {detail}" if detail else self.reason)
        self.detail = detail
        self.result = result


class Unregistered(PushError):
    """The token's activity has ended (APNs 410): stop sending to it."""
    reason = "Unregistered"


class BadDeviceToken(PushError):
    """No push-to-start token of that value on the desktop, or a token of the wrong form."""
    reason = "BadDeviceToken"


class PayloadTooLarge(PushError):
    """Over the desktop's `max-payload-bytes` (4096 by default)."""
    reason = "PayloadTooLarge"


class Duplicate(PushError):
    """The same message (timestamp and bytes) was applied already."""
    reason = "Duplicate"


class Stale(PushError):
    """Older than the last message applied to that activity."""
    reason = "Stale"


class InvalidArgs(PushError):
    """The desktop refused the payload or a value in it (the detail says which)."""
    reason = "InvalidArgs"


class UnknownKind(PushError):
    """`attributes-type` names no kind the desktop knows."""
    reason = "UnknownKind"


class NotActive(PushError):
    """The activity is no longer active."""
    reason = "NotActive"


class TooManyActivities(PushError):
    """The desktop holds as many activities as it allows."""
    reason = "TooManyActivities"


class BadPayload(PushError, ValueError):
    """Refused by a builder before anything was sent (nested content-state, a bad timestamp…)."""
    reason = "BadPayload"


class ReceiptTimeout(PushError, TimeoutError):
    """No receipt in time: the desktop may be asleep or offline (the broker keeps the message
    queued for its session), or the sender cannot read the receipt topic (check the ACL)."""
    reason = "ReceiptTimeout"


_BY_NAME = {cls.reason: cls for cls in (Unregistered, BadDeviceToken, PayloadTooLarge, Duplicate, Stale, InvalidArgs,
                                        UnknownKind, NotActive, TooManyActivities)}


def error_for(reason: str, detail: str = "", result=None) -> PushError:
    """The error of a receipt's reason; a reason without a class of its own is a PushError with that name."""
    cls = _BY_NAME.get(reason)
    if cls is not None:
        return cls(detail, result)
    error = PushError(detail, result)
    error.reason = reason
    error.args = (f"{reason}: {detail}" if detail else reason,)
    return error
