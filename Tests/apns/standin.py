"""What the local APNs knows: its clock, the team's keys, what it was told to answer, and what it received."""

import collections
import json
import time
import uuid

from apns_rules import Refusal, check_headers, check_payload, device_token, message_id
from provider_tokens import ProviderTokenError, ProviderTokens

RECORDS_KEPT = 100_000


class Script:
    """Answers the control API told the stand-in to give instead of its own."""

    def __init__(self):
        self.tokens = {}          # token -> (status, reason)
        self.throttle = 0         # next N requests: 429 TooManyRequests
        self.server_errors = 0    # next N requests: 500 / 503
        self.server_error_status = 500
        self.expire_next = False  # next request: 403 ExpiredProviderToken, its token refused from then on
        self.drop_after = None    # the Nth request from now closes its connection unanswered
        self.delay_ms = 0

    def add(self, command):
        """Adds one control command (a JSON object); raises ValueError naming what is wrong."""
        if not isinstance(command, dict) or not command:
            raise ValueError("expected a non-empty JSON object")
        known = {"token", "status", "reason", "throttle", "serverErrors", "expireProviderToken", "dropAfter", "delayMs"}
        unknown = sorted(set(command) - known)
        if unknown:
            raise ValueError(f"unknown keys: {', '.join(unknown)}")
        if "token" in command:
            token, status, reason = command["token"], command.get("status"), command.get("reason")
            if not isinstance(token, str) or not isinstance(reason, str) or status not in (400, 403, 410, 429, 500, 503):
                raise ValueError("token needs a hex string, status 400/403/410/429/500/503 and a reason string")
            self.tokens[token.lower()] = (status, reason)
        elif "serverErrors" in command:
            status = command.get("status", 500)
            if status not in (500, 503):
                raise ValueError("serverErrors takes status 500 or 503")
            self.server_errors, self.server_error_status = _count(command, "serverErrors"), status
        if "throttle" in command:
            self.throttle = _count(command, "throttle")
        if command.get("expireProviderToken") is True:
            self.expire_next = True
        if "dropAfter" in command:
            self.drop_after = _count(command, "dropAfter", minimum=1)
        if "delayMs" in command:
            self.delay_ms = _count(command, "delayMs", maximum=60_000)


def _count(command, key, minimum=0, maximum=10_000_000):
    value = command[key]
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise ValueError(f"{key} must be an integer in {minimum}...{maximum}")
    return value


class Answer:
    """APNs's answer to one request: a status, a reason for errors, the `apns-id` it carries."""

    __slots__ = ("status", "reason", "apns_id", "timestamp")

    def __init__(self, status, apns_id, reason=None, timestamp=None):
        self.status, self.apns_id, self.reason, self.timestamp = status, apns_id, reason, timestamp

    def body(self):
        if self.reason is None:
            return b""
        fields = {"reason": self.reason}
        if self.timestamp is not None:
            fields["timestamp"] = self.timestamp
        return json.dumps(fields).encode("utf-8")


class StandIn:
    """The local APNs's state, shared by every connection (one asyncio loop: no locks needed)."""

    def __init__(self, keys, team, topics):
        self.tokens = ProviderTokens(keys, team)
        self.topics = set(topics)
        self.offset = 0.0
        self.reset()

    def reset(self):
        self.script = Script()
        self.records = collections.deque(maxlen=RECORDS_KEPT)
        self.delivered = collections.Counter()
        self.by_status = collections.Counter()
        self.by_reason = collections.Counter()
        self.requests = 0
        self.connections = 0
        self.open_connections = 0
        self.max_streams_seen = 0

    def now(self):
        return time.time() + self.offset

    def answer(self, connection, method, path, headers, body):
        """Decides the answer to one complete request and records it (delivered only once written)."""
        self.requests += 1
        record = {"apnsId": None, "token": None, "topic": headers.get("apns-topic"),
                  "pushType": headers.get("apns-push-type"), "priority": headers.get("apns-priority"),
                  "expiration": headers.get("apns-expiration"), "collapseId": headers.get("apns-collapse-id"),
                  "body": body, "bytes": len(body), "jwtIat": None, "jwtKid": None, "receivedAt": self.now(),
                  "connection": connection.number}
        try:
            apns_id = message_id(headers) or str(uuid.uuid4())
        except Refusal as refusal:
            return self._refused(record, str(uuid.uuid4()), refusal.status, refusal.reason)
        record["apnsId"] = apns_id
        try:
            record["token"] = device_token(method, path)
            self._scripted_faults(headers)
            record["jwtKid"], record["jwtIat"] = self.tokens.check(headers.get("authorization"), connection,
                                                                   record["receivedAt"])
            push_type = check_headers(headers, self.topics)
            check_payload(body, push_type)
            scripted = self.script.tokens.get(record["token"])
            if scripted is not None:
                raise Refusal(*scripted)
        except (Refusal, ProviderTokenError) as refusal:
            return self._refused(record, apns_id, refusal.status, refusal.reason)
        record["status"], record["reason"] = 200, None
        self.records.append(record)
        return Answer(200, apns_id)

    def _scripted_faults(self, headers):
        script = self.script
        if script.throttle > 0:
            script.throttle -= 1
            raise Refusal(429, "TooManyRequests")
        if script.server_errors > 0:
            script.server_errors -= 1
            status = script.server_error_status
            raise Refusal(status, "InternalServerError" if status == 500 else "ServiceUnavailable")
        if script.expire_next:
            script.expire_next = False
            self.tokens.expire(headers.get("authorization"))
            raise Refusal(403, "ExpiredProviderToken")

    def _refused(self, record, apns_id, status, reason):
        record["apnsId"], record["status"], record["reason"] = apns_id, status, reason
        self.records.append(record)
        self.by_status[str(status)] += 1
        self.by_reason[reason] += 1
        timestamp = int(self.now() * 1000) if status == 410 else None
        return Answer(status, apns_id, reason, timestamp)

    def written(self, answer):
        """The answer reached the connection: a 200 counts as delivered from now on."""
        if answer.status == 200:
            self.by_status["200"] += 1
            self.delivered[answer.apns_id] += 1

    def dropped(self, answer):
        """The answer was never written (its connection was dropped first)."""
        for record in reversed(self.records):
            if record["apnsId"] == answer.apns_id:
                record["status"], record["reason"] = None, "dropped"
                break

    def should_drop(self):
        """Counts a received request against the script's `dropAfter`; True for the one that drops."""
        if self.script.drop_after is None:
            return False
        self.script.drop_after -= 1
        if self.script.drop_after > 0:
            return False
        self.script.drop_after = None
        return True

    def stats(self):
        return {"requests": self.requests, "delivered": sum(self.delivered.values()),
                "distinctDelivered": len(self.delivered),
                "duplicates": sum(count - 1 for count in self.delivered.values()),
                "byStatus": dict(self.by_status), "byReason": dict(self.by_reason),
                "connections": self.connections, "openConnections": self.open_connections,
                "providerTokens": len(self.tokens.first_seen), "maxConcurrentStreamsSeen": self.max_streams_seen}

    def pushes(self, limit):
        chosen = list(self.records)[-limit:] if limit else []
        return [_public(record) for record in chosen]


def _public(record):
    public = {key: value for key, value in record.items() if key != "body"}
    try:
        public["payload"] = json.loads(record["body"]) if record["body"] else None
    except (ValueError, UnicodeDecodeError):
        public["payload"] = None
    return public
