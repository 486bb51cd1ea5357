"""The HTTP/2 side of the local APNs: one asyncio protocol per TLS connection, driven by python-hyper's h2."""

import asyncio
import uuid

import h2.config
import h2.connection
import h2.events
import h2.exceptions
import h2.settings

WINDOW = 16 * 1024 * 1024


class APNsConnection(asyncio.Protocol):
    """One client connection: reads requests, answers each through the stand-in, can be dropped by the script."""

    def __init__(self, standin, max_streams):
        self.standin = standin
        self.max_streams = max_streams
        self.number = 0
        self.token = None           # the provider token this connection uses now (ProviderTokens tracks refreshes)
        self.token_since = 0.0
        self.streams = {}           # stream id -> [headers dict, body bytearray]
        self.delayed = {}           # stream id -> (answer, timer handle)
        self.transport = None
        self.closed = False
        self.completed = 0          # requests completed in the current read

    def connection_made(self, transport):
        self.transport = transport
        # APNs speaks HTTP/2 only: h2 through ALPN, or with prior knowledge when the client offered no ALPN.
        if transport.get_extra_info("ssl_object").selected_alpn_protocol() not in (None, "h2"):
            transport.abort()
            self.closed = True
            return
        standin = self.standin
        standin.connections += 1
        standin.open_connections += 1
        self.number = standin.connections
        config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8",
                                           validate_inbound_headers=False)  # APNs's own checks follow; saves CPU
        self.conn = h2.connection.H2Connection(config=config)
        self.conn.local_settings = h2.settings.Settings(client=False, initial_values={
            h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: self.max_streams,
            h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: WINDOW})
        self.conn.initiate_connection()
        self.conn.increment_flow_control_window(WINDOW)
        self.flush()

    def connection_lost(self, exc):
        if self.number and not self.closed:
            self.standin.open_connections -= 1
        self.closed = True
        self._forget_delayed()

    def flush(self):
        if not self.closed:
            self.transport.write(self.conn.data_to_send())

    def data_received(self, data):
        if self.closed:
            return
        try:
            events = self.conn.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.flush()
            self.transport.close()
            return
        self.completed = 0
        for event in events:
            if self.closed:
                return
            self._handle(event)
        # Requests completed in one read are answered in one write: they were in flight together.
        self.standin.max_streams_seen = max(self.standin.max_streams_seen, self.completed + len(self.delayed))
        self.flush()

    def _handle(self, event):
        if isinstance(event, h2.events.RequestReceived):
            self.streams[event.stream_id] = [dict(event.headers), bytearray()]
            if event.stream_ended is not None:
                self._complete(event.stream_id)
        elif isinstance(event, h2.events.DataReceived):
            stream = self.streams.get(event.stream_id)
            if stream is not None:
                stream[1] += event.data
            self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if event.stream_ended is not None:
                self._complete(event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            self._complete(event.stream_id)
        elif isinstance(event, h2.events.StreamReset):
            self.streams.pop(event.stream_id, None)
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.transport.close()

    def _complete(self, stream_id):
        stream = self.streams.pop(stream_id, None)
        if stream is None:
            return
        headers, body = stream
        self.completed += 1
        answer = self.standin.answer(self, headers.get(":method"), headers.get(":path", ""), headers, bytes(body))
        if self.standin.should_drop():
            self.standin.dropped(answer)
            self._drop()
            return
        delay = self.standin.script.delay_ms
        if delay > 0:
            timer = asyncio.get_running_loop().call_later(delay / 1000, self._send_delayed, stream_id)
            self.delayed[stream_id] = (answer, timer)
        else:
            self._send(stream_id, answer)

    def _send_delayed(self, stream_id):
        answer, _ = self.delayed.pop(stream_id)
        if not self.closed:
            self._send(stream_id, answer)
            self.flush()

    def _send(self, stream_id, answer):
        headers = [(":status", str(answer.status)), ("apns-id", answer.apns_id)]
        if answer.status == 200:
            headers.append(("apns-unique-id", str(uuid.uuid4())))
        body = answer.body()
        try:
            if body:
                headers.append(("content-type", "application/json"))
                headers.append(("content-length", str(len(body))))
                self.conn.send_headers(stream_id, headers)
                self.conn.send_data(stream_id, body, end_stream=True)
            else:
                self.conn.send_headers(stream_id, headers, end_stream=True)
        except h2.exceptions.StreamClosedError:
            self.standin.dropped(answer)
            return
        self.standin.written(answer)

    def _drop(self):
        """Closes the TCP connection with no GOAWAY and every request on it unanswered."""
        self._forget_delayed()
        self.streams.clear()
        self.flush()  # answers decided before this request still go out; nothing after it does
        self.closed = True
        self.standin.open_connections -= 1
        self.transport.abort()

    def _forget_delayed(self):
        for answer, timer in self.delayed.values():
            timer.cancel()
            self.standin.dropped(answer)
        self.delayed.clear()
