"""The reference game host (docs/clients.md, "The game host"): tables where people, each at a
link of their own, and bots play through a rules service, with replays.

- tables.py: creating tables and applying moves through the service (RulesClient), bots
- store.py: tables and records in Redis or in this process, a compare-and-set per move
- views.py: what each seat and spectator is shown, and the Server-Sent Events streams
- records.py: records (the service's Replay request) and their steps
- bodies.py, limits.py, errors.py: bounded request bodies, every limit, JSON refusals
- api.py: the HTTP routes; main.py: `crabgames-host`
"""
