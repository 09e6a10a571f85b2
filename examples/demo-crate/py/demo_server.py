"""demo_server.py: the Python implementation of demo-server's API, for the demo's head-to-head load
suite (benchgate.yml, suite `api`). Standard library only.

Usage: python3 demo_server.py --port N   (binds 127.0.0.1:N)

- GET /health -> 200 ok
- anything else -> 404
"""

import argparse
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as demo-server
    # Headers and body go out in one write, with no wait for the client's ACK of the previous one
    # (Nagle's algorithm against delayed ACKs costs 40 ms per answer).
    wbufsize = 64 * 1024
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        status, body = (200, b"ok\n") if self.path == "/health" else (404, b"not found\n")
        self.send_response(status)
        self.send_header("content-type", "text/plain")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # one line per request would cost more than the request


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"demo_server.py: listening on 127.0.0.1:{port}", file=sys.stderr, flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
