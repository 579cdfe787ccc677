"""Where the rules service listens by default, and the environment variables that move it: read
by the server (main.py) and by every client (crabclients), so that one setting moves both."""

from __future__ import annotations

ADDRESS_VAR = "CRABGAMES_ADDRESS"  # gRPC, host:port
HTTP_ADDRESS_VAR = "CRABGAMES_HTTP_ADDRESS"  # Connect and gRPC-Web (make run's 127.0.0.1:8080)
DEFAULT_ADDRESS = "127.0.0.1:50051"
