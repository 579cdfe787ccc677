"""The rules engine of CRAB RAGE!, Crab Bucket and Kraby, and its gRPC service."""

from crabgames.compiled import use_compiled_build

# What runs: the compiled build of the rules if it is there and fresh, else the pure source.
BUILD = use_compiled_build()
