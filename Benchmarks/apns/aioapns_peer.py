#!/usr/bin/env python3
"""The apns benchmark's peer: aioapns sending a burst of Live Activity pushes to an APNs-like server.

aioapns connects to Apple's hosts only; the benchmark points its protocol class at the local server (host and port
class attributes) and gives it an SSL context that trusts the server's CA: the same client code, another address.
Prints one JSON line: {"pushes", "ok", "seconds", "rate", "p50Ms", "p99Ms", "cpuSeconds", "connections"}.
"""

import argparse
import asyncio
import json
import ssl
import time
import uuid

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--server-name", default="localhost", help="the name the server's certificate carries")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca-file", required=True)
    parser.add_argument("--key-file", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--topic", required=True, help="the bundle id; the liveactivity suffix is added")
    parser.add_argument("--pushes", type=int, default=20000)
    parser.add_argument("--connections", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=500, help="requests in flight at once")
    parser.add_argument("--warmup", type=int, default=500)
    options = parser.parse_args()
    if not (1 <= options.connections <= 16 and 1 <= options.concurrency <= 100000 and options.pushes >= 1):
        parser.error("--connections 1-16, --concurrency 1-100000, --pushes at least 1")
    return options


async def burst(client, topic, count, concurrency, latencies):
    """Sends `count` pushes with at most `concurrency` in flight; returns how many were answered 200."""
    ok = 0
    semaphore = asyncio.Semaphore(concurrency)
    token = "ab" * 32

    async def one(n):
        nonlocal ok
        async with semaphore:
            request = NotificationRequest(
                device_token=token, notification_id=str(uuid.uuid4()), push_type=PushType.LIVEACTIVITY,
                apns_topic=topic, priority=5,
                message={"aps": {"timestamp": 1700000000 + n, "event": "update", "content-state": {"n": n}}})
            start = time.perf_counter()
            result = await client.send_notification(request)
            latencies.append(time.perf_counter() - start)
            if result.is_successful:
                ok += 1

    await asyncio.gather(*(one(n) for n in range(count)))
    return ok


async def main(options):
    APNsProductionClientProtocol.APNS_SERVER = options.server_name
    APNsProductionClientProtocol.APNS_PORT = options.port
    context = ssl.create_default_context(cafile=options.ca_file)
    context.set_alpn_protocols(["h2"])
    with open(options.key_file) as file:
        key = file.read()
    client = APNs(key=key, key_id=options.key_id, team_id=options.team_id, topic=options.topic,
                  max_connections=options.connections, ssl_context=context)
    topic = options.topic + ".push-type.liveactivity"
    await burst(client, topic, options.warmup, options.concurrency, [])
    latencies = []
    cpu = time.process_time()
    start = time.perf_counter()
    ok = await burst(client, topic, options.pushes, options.concurrency, latencies)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    latencies.sort()
    print(json.dumps({
        "pushes": options.pushes, "ok": ok, "seconds": seconds, "rate": options.pushes / seconds,
        "p50Ms": latencies[len(latencies) // 2] * 1000, "p99Ms": latencies[int(len(latencies) * 0.99)] * 1000,
        "cpuSeconds": cpu, "connections": len(client.pool.connections),
    }), flush=True)


if __name__ == "__main__":
    asyncio.run(main(arguments()))
