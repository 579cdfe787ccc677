"""Conformance cases for crab_bucket: (num_players, options message) pairs.

Every player count in both modes with the default deck, and again with an "easy" deck (a Chain
and a Gap per mission) so that random games complete missions and use every ability.
"""

from crabgames.v1 import crab_bucket_pb2 as pb

QUICK = pb.CRAB_BUCKET_MODE_QUICK
WILD_CRAB = pb.CRAB_BUCKET_MODE_WILD_CRAB
COLORS = (
    pb.CRAB_BUCKET_COLOR_RED,
    pb.CRAB_BUCKET_COLOR_GREEN,
    pb.CRAB_BUCKET_COLOR_BLUE,
    pb.CRAB_BUCKET_COLOR_YELLOW,
)
ABILITIES = [value for value in pb.CrabBucketAbility.values() if value]


def easy_missions() -> list[pb.CrabBucketMission]:
    """18 missions, 6 per level, each ability twice, each a Chain between two colours and two
    neighbouring tops of a third colour."""
    missions = []
    for i, ability in enumerate(ABILITIES * 2):
        pair = pb.CrabBucketColorPair(first=COLORS[i % 4], second=COLORS[(i + 1) % 4])
        missions.append(
            pb.CrabBucketMission(
                name=f"Easy {i}",
                level=1 + i // 6,
                ability=ability,
                requirements=[
                    pb.CrabBucketRequirement(adjacent=pair),
                    pb.CrabBucketRequirement(
                        gap=pb.CrabBucketGap(color=COLORS[(i + 2) % 4], between=0)
                    ),
                ],
            )
        )
    return missions


CASES: list = [
    (players, pb.CrabBucketOptions(mode=mode, first_player=players - 1))
    for players in (2, 3, 4, 5)
    for mode in (QUICK, WILD_CRAB)
] + [
    (players, pb.CrabBucketOptions(mode=mode, missions=easy_missions()))
    for players in (2, 3, 4, 5)
    for mode in (QUICK, WILD_CRAB)
]
