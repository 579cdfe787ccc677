"""`make bench`: how fast the engine serves, against the floor gRPC sets (docs/performance.md)."""
