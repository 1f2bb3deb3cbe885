"""A loopback HTTP/1.1 server that misbehaves on demand, for NetTap's fault-injection tests.

Standard library only. Binds 127.0.0.1 on a port the kernel picks and writes
"Listening at: http://127.0.0.1:PORT (fault server)" to standard error once it accepts connections.
Every request is read up to the end of its head, then logged to standard output, flushed, as
"METHOD PATH QUERY STATUS X-TEST-ID" (the format of the httpbin access log: QUERY is empty when there
is none, STATUS is the status the fault claims or 0 when it sends none, X-TEST-ID is "-" when absent),
before the fault is acted out. Each connection serves one request and is then closed.

The path picks the fault (query parameters in brackets, with their defaults):

  /ok [length=16]                  a well-formed 200 with a body of `length` pattern bytes
  /chunked [length=16]             a well-formed 200 with `length` pattern bytes in one chunk (Transfer-Encoding:
                                   chunked, no Content-Length)
  /reset-before-headers            RST (SO_LINGER 0, close) before sending anything
  /empty-reply                     a normal close (FIN) before sending anything
  /reset-mid-headers               half a response head, then RST
  /reset-mid-body [length=1000, sent=400]
                                   a head with Content-Length `length`, `sent` body bytes, then RST
  /short-body [length=1000, sent=400]
                                   a head with Content-Length `length`, `sent` body bytes, then a normal close
  /stall-mid-body [length=1000, sent=400]
                                   a head with Content-Length `length`, `sent` body bytes, then silence until the
                                   client closes the connection
  /short-chunked [sent=400]        Transfer-Encoding: chunked; `sent` body bytes in one chunk, then a normal close
                                   without the last chunk
  /reset-mid-chunked [sent=400]    Transfer-Encoding: chunked; `sent` body bytes in one chunk, then RST
  /long-body [length=10, sent=30]  a head with Content-Length `length`, `sent` body bytes, then a normal close
  /bad-chunked                     Transfer-Encoding: chunked; one good chunk, then a chunk size that is not hex
  /garbage-status                  a line that is no HTTP status line, a header, a blank line and a body
  /never                           reads the request and never answers; closes when the client does
  /slow [count=3, interval=1]      Content-Length `count`, then one body byte every `interval` seconds
  /many-headers [count=10000]      a 200 with `count` header lines "X-Fault-N: value-N" and a 2-byte body
  /huge [size=1073741824]          a 200 with a body of `size` pattern bytes, generated while sending
  /set-cookie [value=a=1]          a 200 with the header `Set-Cookie: value` (sent as UTF-8) and the body `ok`

Body bytes are the pattern byte i % 251 for offset i, so a test can compute the expected digest itself.
Anything else answers 404.

The server is meant to run under the test support's Python launcher, which stops it with SIGINT when the
test process goes away; SIGINT and SIGTERM end it at once.
"""

import os
import signal
import socket
import socketserver
import struct
import sys
import time
import urllib.parse

PATTERN_PERIOD = 251
BLOCK = bytes(range(PATTERN_PERIOD)) * 4096  # about 1 MiB, whole periods


def pattern(offset, count):
    """The pattern bytes [offset, offset + count)."""
    out = bytearray()
    start = offset % PATTERN_PERIOD
    while count > 0:
        piece = BLOCK[start:start + count]
        out += piece
        count -= len(piece)
        start = 0
    return bytes(out)


def log(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class FaultHandler(socketserver.BaseRequestHandler):
    def handle(self):
        connection = self.request
        head = b""
        while b"\r\n\r\n" not in head:
            received = connection.recv(65536)
            if not received:
                return
            head += received
            if len(head) > 1 << 20:
                return
        lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) < 2:
            return
        method, target = parts[0], parts[1]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        url = urllib.parse.urlsplit(target)
        query = {key: values[-1] for key, values in urllib.parse.parse_qs(url.query).items()}
        self.connection = connection
        self.query = query
        self.test_id = headers.get("x-test-id", "-") or "-"
        fault = FAULTS.get(url.path)
        status = STATUS.get(url.path, 404)
        log(f"{method} {url.path} {url.query} {status} {headers.get('x-test-id', '-') or '-'}")
        if fault is None:
            self.send_response(404, b"not a fault\n")
            return
        fault(self)

    # Helpers

    def number(self, name, default):
        return int(self.query.get(name, default))

    def send(self, data):
        self.connection.sendall(data)

    def reset(self):
        """Closes with an RST: SO_LINGER on with a zero timeout."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()

    def head(self, status, headers):
        reason = {200: "OK", 404: "Not Found"}.get(status, "Fault")
        text = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers)
        return (text + "Connection: close\r\n\r\n").encode("latin-1")

    def send_response(self, status, body):
        self.send(self.head(status, [("Content-Type", "text/plain"), ("Content-Length", len(body))]) + body)

    def wait_for_close(self):
        """Reads (and drops) whatever the client sends until it closes the connection."""
        try:
            while self.connection.recv(65536):
                pass
        except OSError:
            pass

    # Faults

    def ok(self):
        length = self.number("length", 16)
        self.send(self.head(200, [("Content-Type", "application/octet-stream"), ("Content-Length", length)]))
        self.send(pattern(0, length))

    def chunked(self):
        length = self.number("length", 16)
        self.send(self.head(200, [("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")]))
        if length > 0:
            self.send(b"%x\r\n" % length + pattern(0, length) + b"\r\n")
        self.send(b"0\r\n\r\n")

    def reset_before_headers(self):
        self.reset()

    def empty_reply(self):
        self.connection.shutdown(socket.SHUT_WR)
        self.wait_for_close()

    def reset_mid_headers(self):
        self.send(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\nX-Half-")
        self.reset()

    def partial_body(self, length_default, sent_default):
        length = self.number("length", length_default)
        sent = self.number("sent", sent_default)
        self.send(self.head(200, [("Content-Type", "application/octet-stream"), ("Content-Length", length)]))
        self.send(pattern(0, sent))

    def reset_mid_body(self):
        self.partial_body(1000, 400)
        self.reset()

    def short_body(self):
        self.partial_body(1000, 400)

    def stall_mid_body(self):
        self.partial_body(1000, 400)
        self.wait_for_close()

    def partial_chunked(self):
        sent = self.number("sent", 400)
        self.send(self.head(200, [("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked")]))
        if sent > 0:
            self.send(b"%x\r\n" % sent + pattern(0, sent) + b"\r\n")

    def short_chunked(self):
        self.partial_chunked()

    def reset_mid_chunked(self):
        self.partial_chunked()
        self.reset()

    def long_body(self):
        self.partial_body(10, 30)

    def bad_chunked(self):
        self.send(self.head(200, [("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")]))
        self.send(b"5\r\nhello\r\nzz\r\nnot a chunk\r\n0\r\n\r\n")

    def garbage_status(self):
        self.send(b"SPAM AND EGGS\r\nX-Garbage: yes\r\n\r\nthis is no HTTP response\n")

    def never(self):
        self.wait_for_close()

    def slow(self):
        count = self.number("count", 3)
        interval = float(self.query.get("interval", "1"))
        self.send(self.head(200, [("Content-Type", "application/octet-stream"), ("Content-Length", count)]))
        for offset in range(count):
            time.sleep(interval)
            self.send(pattern(offset, 1))

    def many_headers(self):
        count = self.number("count", 10000)
        fields = [(f"X-Fault-{index}", f"value-{index}") for index in range(count)]
        fields += [("Content-Type", "text/plain"), ("Content-Length", 2)]
        self.send(self.head(200, fields) + b"ok")

    def huge(self):
        size = self.number("size", 1 << 30)
        self.send(self.head(200, [("Content-Type", "application/octet-stream"), ("Content-Length", size)]))
        view = memoryview(BLOCK)
        sent = 0
        while sent < size:
            piece = view[: min(len(BLOCK), size - sent)]
            self.send(piece)
            sent += len(piece)

    def keep_alive(self):
        """A 200 with the body `ok` on a connection kept open; logs `CLOSE` when the client closes it."""
        head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n"
        self.send(head.encode("latin-1") + b"ok")
        self.wait_for_close()
        log(f"CLOSE /keep-alive  0 {self.test_id}")

    def set_cookie(self):
        value = self.query.get("value", "a=1")
        head = self.head(200, [("Content-Type", "text/plain"), ("Content-Length", 2)])
        self.send(head.replace(b"\r\n", b"\r\nSet-Cookie: " + value.encode("utf-8") + b"\r\n", 1) + b"ok")


FAULTS = {
    "/ok": FaultHandler.ok,
    "/chunked": FaultHandler.chunked,
    "/reset-before-headers": FaultHandler.reset_before_headers,
    "/empty-reply": FaultHandler.empty_reply,
    "/reset-mid-headers": FaultHandler.reset_mid_headers,
    "/reset-mid-body": FaultHandler.reset_mid_body,
    "/short-body": FaultHandler.short_body,
    "/stall-mid-body": FaultHandler.stall_mid_body,
    "/short-chunked": FaultHandler.short_chunked,
    "/reset-mid-chunked": FaultHandler.reset_mid_chunked,
    "/long-body": FaultHandler.long_body,
    "/bad-chunked": FaultHandler.bad_chunked,
    "/garbage-status": FaultHandler.garbage_status,
    "/never": FaultHandler.never,
    "/slow": FaultHandler.slow,
    "/many-headers": FaultHandler.many_headers,
    "/huge": FaultHandler.huge,
    "/set-cookie": FaultHandler.set_cookie,
    "/keep-alive": FaultHandler.keep_alive,
}

STATUS = {path: 200 for path in FAULTS}
STATUS.update(
    {"/reset-before-headers": 0, "/empty-reply": 0, "/reset-mid-headers": 0, "/garbage-status": 0, "/never": 0}
)


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # A client that went away mid-fault (BrokenPipeError, ConnectionResetError) is expected here.
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):
            super().handle_error(request, client_address)


def main():
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: os._exit(0))
    server = Server(("127.0.0.1", 0), FaultHandler)
    port = server.server_address[1]
    sys.stderr.write(f"Listening at: http://127.0.0.1:{port} (fault server)\n")
    sys.stderr.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
