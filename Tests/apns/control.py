"""The local APNs's control API: plain HTTP/1.1 with JSON on loopback, for tests to script answers and read what
was received. One request per connection."""

import asyncio
import json
import urllib.parse

MAX_BODY = 1 << 20


async def _read_request(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    if not 0 <= length <= MAX_BODY:
        raise ValueError("content-length out of range")
    body = await reader.readexactly(length) if length else b""
    return method, target, body


class Control:
    """Serves GET /stats, /apns-ids, /pushes, /provider-tokens and POST /reset, /clock, /script."""

    def __init__(self, standin):
        self.standin = standin

    async def serve(self, reader, writer):
        try:
            method, target, body = await _read_request(reader)
            status, answer = self.route(method, target, body)
        except (ValueError, asyncio.IncompleteReadError) as error:
            status, answer = 400, {"error": str(error)}
        data = json.dumps(answer).encode("utf-8")
        writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Connection: close\r\n\r\n" % (status, b"OK" if status == 200 else b"Error", len(data)) + data)
        try:
            await writer.drain()
        finally:
            writer.close()

    def route(self, method, target, body):
        url = urllib.parse.urlsplit(target)
        query = urllib.parse.parse_qs(url.query)
        standin = self.standin
        if method == "GET" and url.path == "/stats":
            return 200, standin.stats()
        if method == "GET" and url.path == "/apns-ids":
            return 200, dict(standin.delivered)
        if method == "GET" and url.path == "/pushes":
            limit = int(query.get("limit", ["100"])[0])
            if limit < 0:
                raise ValueError("limit must not be negative")
            return 200, standin.pushes(limit)
        if method == "GET" and url.path == "/provider-tokens":
            return 200, standin.tokens.first_seen
        if method == "POST" and url.path == "/reset":
            standin.reset()
            return 200, {"ok": True}
        if method == "POST" and url.path == "/clock":
            return 200, self.clock(_json(body))
        if method == "POST" and url.path == "/script":
            standin.script.add(_json(body))
            return 200, {"ok": True}
        return 404, {"error": f"no control endpoint {method} {url.path}"}

    def clock(self, command):
        standin = self.standin
        if command.get("real") is True:
            standin.offset = 0.0
        elif isinstance(command.get("now"), (int, float)) and not isinstance(command.get("now"), bool):
            standin.offset = command["now"] - (standin.now() - standin.offset)
        elif isinstance(command.get("advance"), (int, float)) and not isinstance(command.get("advance"), bool):
            standin.offset += command["advance"]
        else:
            raise ValueError('expected {"now": seconds}, {"advance": seconds} or {"real": true}')
        return {"now": standin.now()}


def _json(body):
    try:
        value = json.loads(body or b"null")
    except ValueError as error:
        raise ValueError(f"body is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise ValueError("body must be a JSON object")
    return value
