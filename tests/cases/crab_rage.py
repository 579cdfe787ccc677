"""Conformance cases for crab_rage: (num_players, options message) pairs."""

from crabgames.v1 import crab_rage_pb2 as pb

_B = pb.CrabRageBillboard

CASES: list = [
    (3, pb.CrabRageOptions()),
    (4, pb.CrabRageOptions()),
    (5, pb.CrabRageOptions()),
    # Fixed microphone and billboards (R5, R6 options).
    (
        3,
        pb.CrabRageOptions(
            microphone=2,
            billboards=[
                _B.CRAB_RAGE_BILLBOARD_MEGA_MUSCLE,
                _B.CRAB_RAGE_BILLBOARD_PRESSURE_COOKER,
                _B.CRAB_RAGE_BILLBOARD_BARNACLE_BRAWL,
            ],
        ),
    ),
    # Other colours by seat, every team using the printed Frenzy.
    (
        4,
        pb.CrabRageOptions(
            teams=[5, 4, 3, 1],
            signature_moves=[pb.CRAB_RAGE_SIGNATURE_MOVE_FRENZY] * 4,
        ),
    ),
]
