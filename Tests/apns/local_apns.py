#!/usr/bin/env python3
"""A local stand-in for Apple's push notification service, for WidgetHost's tests, benchmarks and demo.

HTTP/2 over TLS on loopback (python-hyper h2 over asyncio), answering as APNs does: it checks the provider token's
ES256 signature against the team's key, the path, headers, topic suffix and payload size, can be told to answer
errors, and records what it received. See Tests/apns/README.md; run it through ./local-apns.
"""

import argparse
import asyncio
import json
import os
import signal
import sys

from control import Control
from provider_tokens import load_key
from server import APNsConnection
from standin import StandIn
from tls import server_context


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--control-port", type=int, default=0)
    parser.add_argument("--state-dir", required=True, help="where ca.pem and ready.json are written")
    parser.add_argument("--key", action="append", default=[], metavar="KEYID=PATH", help="the team's .p8 or public key")
    parser.add_argument("--team", required=True, metavar="TEAMID")
    parser.add_argument("--topic", action="append", default=[], metavar="BUNDLEID", help="an allowed bundle id")
    parser.add_argument("--max-streams", type=int, default=1000)
    options = parser.parse_args()
    if not options.key or not options.topic:
        parser.error("at least one --key and one --topic are needed")
    if not 1 <= options.max_streams <= 100_000:
        parser.error("--max-streams must be in 1...100000")
    return options


async def main(options):
    try:
        keys = dict(load_key(argument) for argument in options.key)
    except (OSError, ValueError) as error:
        sys.exit(f"local-apns: {error}")
    os.makedirs(options.state_dir, exist_ok=True)
    context, ca_file = server_context(options.state_dir)
    standin = StandIn(keys, options.team, options.topic)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: APNsConnection(standin, options.max_streams),
                                      options.host, options.port, ssl=context, backlog=512)
    control = await asyncio.start_server(Control(standin).serve, "127.0.0.1", options.control_port)
    ready = {"port": server.sockets[0].getsockname()[1], "controlPort": control.sockets[0].getsockname()[1],
             "caFile": ca_file, "pid": os.getpid()}
    path = os.path.join(options.state_dir, "ready.json")
    with open(path + ".tmp", "w") as file:
        json.dump(ready, file)
    os.replace(path + ".tmp", path)
    print(json.dumps(ready), flush=True)
    stop = asyncio.Event()
    # A parent that blocks signals (a Swift test process does) passes its mask on: unblock the two that stop us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    server.close()
    control.close()


if __name__ == "__main__":
    asyncio.run(main(arguments()))
