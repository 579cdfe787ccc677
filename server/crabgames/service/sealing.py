"""Sealed states and player tokens (docs/security.md), at the service edge: the engine never
sees a sealed state.

A sealed `GameState` keeps its public header readable (rules_version, num_players, version,
next, chance_mode, and which game it is, as an empty game message) and carries everything secret
(the game's state, the seed and the PRNG) in `sealed`:

    sealed = b"CGS1" | len(key_id) (1 byte) | key_id | nonce (12 bytes) | AES-GCM(secret part)

The secret part is a serialized GameState holding only seed, prng and the game's state. The
header and the key id are the AES-GCM associated data, so a seal cannot be moved to another
header (another version, another decision) without failing to open.

Keys come from the environment: CRABGAMES_SEAL_KEYS="id1:base64key,id2:base64key" (16, 24 or 32
bytes each). The first key seals; every listed key opens, so keys rotate by putting a new key
first and dropping the old one once no state sealed with it is still in play. Separate AES and
HMAC keys are derived from each key with HKDF.

A player token is HMAC-SHA256(token key, game id | seed | seat), prefixed by the key id:
"<key id>.<base64url mac>". The seed is secret inside the seal, so nobody can compute a token
without the key.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import os
import re
from dataclasses import dataclass
from hashlib import sha256

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from google.protobuf.message import DecodeError
from google.rpc import code_pb2

from crabgames.core.errors import RulesError, malformed
from crabgames.v1 import game_pb2

ENV_VAR = "CRABGAMES_SEAL_KEYS"
MAGIC = b"CGS1"
NONCE_BYTES = 12
KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
GAME_FIELDS = ("kraby", "crab_bucket", "crab_rage")


class PermissionDenied(RulesError):
    """A call that needs a seat's player token came without the right one (or would read a
    sealed state's secrets in another way)."""

    status_code = code_pb2.PERMISSION_DENIED

    def __init__(self, message: str, reason: str = "BAD_PLAYER_TOKEN") -> None:
        super().__init__(message)
        self.reason = reason


def bad_seal(description: str):
    return malformed("BAD_SEAL", "state.sealed", description)


@dataclass(frozen=True)
class SealKey:
    key_id: str
    aead: AESGCM
    token_key: bytes


def derive(key_id: str, secret: bytes) -> SealKey:
    def hkdf(info: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret)

    return SealKey(key_id, AESGCM(hkdf(b"crabgames seal v1")), hkdf(b"crabgames player token v1"))


class Sealer:
    """Seals and opens states and issues and checks player tokens with a ring of keys."""

    def __init__(self, keys: list[tuple[str, bytes]]) -> None:
        if not keys:
            raise ValueError("sealing needs at least one key")
        self.keys: dict[str, SealKey] = {}
        for key_id, secret in keys:
            if not KEY_ID.match(key_id):
                raise ValueError(f"key id {key_id!r}: use 1 to 32 of A-Z a-z 0-9 _ -")
            if len(secret) not in (16, 24, 32):
                raise ValueError(f"key {key_id!r}: must be 16, 24 or 32 bytes, not {len(secret)}")
            if key_id in self.keys:
                raise ValueError(f"key id {key_id!r} appears twice")
            self.keys[key_id] = derive(key_id, secret)
        self.primary = self.keys[keys[0][0]]

    @classmethod
    def parse(cls, text: str) -> Sealer:
        """From "id1:base64key,id2:base64key" (the first key seals)."""
        keys = []
        for item in filter(None, (part.strip() for part in text.split(","))):
            key_id, sep, encoded = item.partition(":")
            if not sep:
                raise ValueError(f"{ENV_VAR}: {item[:8]!r}... is not id:base64key")
            try:
                keys.append((key_id, base64.b64decode(encoded, validate=True)))
            except binascii.Error as error:
                raise ValueError(f"{ENV_VAR}: key {key_id!r} is not base64") from error
        return cls(keys)

    @classmethod
    def from_env(cls, environ=os.environ) -> Sealer | None:
        """The sealer configured by CRABGAMES_SEAL_KEYS, or None (sealing off) when unset."""
        text = environ.get(ENV_VAR, "").strip()
        return cls.parse(text) if text else None

    # ----- states -----

    def seal(self, state: game_pb2.GameState) -> game_pb2.GameState:
        """A copy of a full state with its secret part sealed under the primary key."""
        which = state.WhichOneof("game")
        secret = game_pb2.GameState(seed=state.seed, prng=state.prng)
        if which is not None:
            getattr(secret, which).CopyFrom(getattr(state, which))
        out = game_pb2.GameState()
        out.CopyFrom(state)
        out.ClearField("seed")
        out.ClearField("prng")
        if which is not None:
            getattr(out, which).Clear()
            getattr(out, which).SetInParent()
        key = self.primary
        nonce = os.urandom(NONCE_BYTES)
        head = MAGIC + bytes([len(key.key_id)]) + key.key_id.encode()
        body = key.aead.encrypt(nonce, secret.SerializeToString(), header(out, key.key_id))
        out.sealed = head + nonce + body
        return out

    def open(self, state: game_pb2.GameState) -> game_pb2.GameState:
        """The full state behind a sealed one; BAD_SEAL when the seal is missing, altered, made
        with an unknown key or does not belong to this header."""
        if not state.sealed:
            raise bad_seal("this server seals its states: send the state it returned, unchanged")
        which = state.WhichOneof("game")
        if state.seed or state.HasField("prng") or (which and getattr(state, which).ByteSize()):
            raise bad_seal("a sealed state keeps its seed, PRNG and game state only in the seal")
        key_id, nonce, body = split(state.sealed)
        key = self.keys.get(key_id)
        if key is None:
            raise bad_seal(f"sealed with key {key_id!r}, which this server does not hold")
        try:
            plain = key.aead.decrypt(nonce, body, header(state, key_id))
            secret = game_pb2.GameState.FromString(plain)
        except (InvalidTag, DecodeError):
            raise bad_seal(
                "the seal does not open: it was altered or belongs to another state"
            ) from None
        out = game_pb2.GameState()
        out.CopyFrom(state)
        out.ClearField("sealed")
        out.MergeFrom(secret)
        return out

    # ----- player tokens -----

    def token(self, state: game_pb2.GameState, seat: int, key: SealKey | None = None) -> str:
        """The token of `seat` in the game of a full (opened) state."""
        key = key or self.primary
        mac = hmac.new(key.token_key, token_message(state, seat), sha256).digest()
        return f"{key.key_id}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"

    def tokens(self, state: game_pb2.GameState) -> list[str]:
        return [self.token(state, seat) for seat in range(state.num_players)]

    def check_token(self, state: game_pb2.GameState, seat: int, token: str, why: str) -> None:
        """PERMISSION_DENIED unless `token` is `seat`'s token for this (opened) state."""
        if not token:
            raise PermissionDenied(f"{why} needs player {seat}'s player_token")
        key = self.keys.get(token.partition(".")[0])
        if key is None or not hmac.compare_digest(
            self.token(state, seat, key).encode(), token.encode()
        ):
            raise PermissionDenied(f"{why}: player_token is not player {seat}'s token")


def split(sealed: bytes) -> tuple[str, bytes, bytes]:
    if not sealed.startswith(MAGIC) or len(sealed) < len(MAGIC) + 1:
        raise bad_seal("not a seal made by this server")
    size = sealed[len(MAGIC)]
    start = len(MAGIC) + 1
    key_id, rest = sealed[start : start + size], sealed[start + size :]
    if len(key_id) != size or len(rest) < NONCE_BYTES + 16:
        raise bad_seal("the seal is cut short")
    try:
        return key_id.decode("ascii"), rest[:NONCE_BYTES], rest[NONCE_BYTES:]
    except UnicodeDecodeError:
        raise bad_seal("not a seal made by this server") from None


def header(state: game_pb2.GameState, key_id: str) -> bytes:
    """The public header a seal is bound to (AES-GCM associated data)."""
    fields = [
        "crabgames.v1.GameState",
        key_id,
        state.WhichOneof("game") or "",
        state.rules_version,
        state.num_players,
        state.chance_mode,
        state.version,
        state.next.kind,
        state.next.player,
        state.next.decision,
    ]
    return json.dumps(fields, separators=(",", ":")).encode()


def token_message(state: game_pb2.GameState, seat: int) -> bytes:
    game = state.WhichOneof("game") or ""
    return json.dumps(["crabgames player token", game, state.seed, seat]).encode()
