"""The checks APNs makes on a request's path, headers and payload, with APNs's own answers (status, reason)."""

import re
import uuid

TOPIC_SUFFIXES = {
    "alert": "", "background": "", "mdm": "",
    "liveactivity": ".push-type.liveactivity",
    "widgets": ".push-type.widgets",
    "controls": ".push-type.controls",
    "voip": ".voip",
    "complication": ".complication",
    "location": ".location-query",
    "pushtotalk": ".voip-ptt",
    "fileprovider": ".pushkit.fileprovider",
}

PATH = re.compile(r"/3/device/([^/?]*)")
TOKEN = re.compile(r"(?:[0-9a-fA-F]{2}){32,100}")
MAX_PAYLOAD = 4096
MAX_VOIP_PAYLOAD = 5120
MAX_COLLAPSE_ID = 64


class Refusal(Exception):
    """APNs's answer to a request it will not deliver."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def device_token(method, path):
    """The device token the request is addressed to; raises for a wrong method, path or token."""
    if method != "POST":
        raise Refusal(405, "MethodNotAllowed")
    match = PATH.fullmatch(path)
    if match is None:
        raise Refusal(404, "BadPath")
    if TOKEN.fullmatch(match.group(1)) is None:
        raise Refusal(400, "BadDeviceToken")
    return match.group(1).lower()


def message_id(headers):
    """`apns-id` as sent (lowercased), or None; raises when it is not a UUID."""
    value = headers.get("apns-id")
    if value is None:
        return None
    try:
        if len(value) != 36:
            raise ValueError(value)
        return str(uuid.UUID(value))
    except ValueError:
        raise Refusal(400, "BadMessageId") from None


def check_headers(headers, topics):
    """Checks topic, push type, priority, expiration and collapse id; returns the push type."""
    push_type = headers.get("apns-push-type", "alert")
    suffix = TOPIC_SUFFIXES.get(push_type)
    if suffix is None:
        raise Refusal(400, "InvalidPushType")
    topic = headers.get("apns-topic")
    if not topic:
        raise Refusal(400, "MissingTopic")
    base = topic[:-len(suffix)] if suffix and topic.endswith(suffix) else topic
    if base not in topics:
        known = any(topic.endswith(other) and topic[:-len(other)] in topics
                    for other in TOPIC_SUFFIXES.values() if other)
        raise Refusal(400, "BadTopic" if known else "TopicDisallowed")
    if suffix and not topic.endswith(suffix):
        raise Refusal(400, "BadTopic")
    if headers.get("apns-priority", "10") not in ("1", "5", "10"):
        raise Refusal(400, "BadPriority")
    expiration = headers.get("apns-expiration")
    if expiration is not None and not (expiration.isascii() and expiration.isdigit()):
        raise Refusal(400, "BadExpirationDate")
    collapse_id = headers.get("apns-collapse-id")
    if collapse_id is not None and len(collapse_id.encode("utf-8")) > MAX_COLLAPSE_ID:
        raise Refusal(400, "BadCollapseId")
    return push_type


def check_payload(body, push_type):
    """Refuses an empty or oversized payload."""
    if not body:
        raise Refusal(400, "PayloadEmpty")
    if len(body) > (MAX_VOIP_PAYLOAD if push_type == "voip" else MAX_PAYLOAD):
        raise Refusal(413, "PayloadTooLarge")
