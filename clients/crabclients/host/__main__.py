"""`python -m crabclients.host`: the game host (main.py)."""

from crabclients.host.main import main

if __name__ == "__main__":
    raise SystemExit(main())
