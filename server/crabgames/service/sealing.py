"""Sealed states, player tokens and sampled-state tags (docs/security.md), at the service edge:
the engine never sees a sealed state.

A sealed `GameState` keeps its public header readable (rules_version, num_players, version,
next, chance_mode, ask_forced_decisions, and which game it is, as an empty game message) and
carries everything secret (the game's state, the seed and the PRNG) in `sealed`, with the game's
instance id:

    sealed = b"CGS3" | len(key_id) (1 byte) | key_id | nonce (12 bytes)
             | AES-GCM(instance id (16 bytes) | secret part)

The secret part is a serialized GameState holding only seed, prng and the game's state
(SECRET_FIELDS). The associated data is the magic, the key id and the whole public part: the
state as sealed, without `sealed`, serialized. Every field outside the seal is bound so, those of
today and any added to GameState later, by construction rather than by a list to keep up to
date; a seal cannot be moved to another header (another version, decision, option) without
failing to open. The instance id is drawn at random for each game (NewGame, Replay): two games
whose headers (and even seeds) are the same still differ in it, and tokens and the freshness
ledger (ledger.py) are bound to it.

Keys come from the environment: CRABGAMES_SEAL_KEYS="id1:base64key,id2:base64key" (16, 24 or 32
bytes each). The first key seals; every listed key opens, so keys rotate by putting a new key
first and dropping the old one once no state sealed with it is still in play. Separate AES and
HMAC keys are derived from each key with HKDF.

A player token is HMAC-SHA256(token key, game id | instance id | seed | seat), prefixed by the
key id: "<key id>.<base64url mac>". The instance id and seed are secret inside the seal, so
nobody can compute a token without the key, nor use one in another game.

A sampled state (SampleState) holds no real secret and stays unsealed, but a sealing server
tags it: sample_tag = b"CGT1" | len(key_id) | key_id | HMAC-SHA256(sample key, the state's
serialization without the tag). Only states this deployment drew, and states played on from
them, pass as sampled; a full state written by a caller does not.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from hashlib import sha256

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from google.protobuf.message import DecodeError
from google.rpc import code_pb2

from crabgames.core import wire
from crabgames.core.engine import without_unknown_fields
from crabgames.core.errors import InvalidArgument, RulesError, malformed
from crabgames.v1 import game_pb2

ENV_VAR = "CRABGAMES_SEAL_KEYS"
# CGS1 seals (before instance ids) no longer open: they had no instance. Nor do CGS2 seals:
# they bound a list of header fields that left out ask_forced_decisions (and `sampled`, and
# whether next.player is set), so a caller could flip those on a state that still opened.
MAGIC = b"CGS3"
TAG_MAGIC = b"CGT1"
AD_LABEL = b"crabgames.v1.GameState\0"  # what the associated data is the header of
NONCE_BYTES = 12
INSTANCE_BYTES = 16  # 128 random bits: two games never share one
MAC_BYTES = 32
KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
# What a seal hides: the seeds and every game's own state (the fields of the `game` oneof).
SECRET_FIELDS = frozenset(
    ("seed", "prng", *(f.name for f in game_pb2.GameState.DESCRIPTOR.oneofs_by_name["game"].fields))
)


class PermissionDenied(RulesError):
    """A call that needs a seat's player token came without the right one (or would read a
    sealed state's secrets in another way)."""

    status_code = code_pb2.PERMISSION_DENIED

    def __init__(self, message: str, reason: str = "BAD_PLAYER_TOKEN") -> None:
        super().__init__(message)
        self.reason = reason


def bad_seal(description: str, field: str = "state.sealed") -> InvalidArgument:
    return malformed("BAD_SEAL", field, description)


@dataclass(frozen=True)
class SealKey:
    key_id: str
    aead: AESGCM
    token_key: bytes
    sample_key: bytes


def derive(key_id: str, secret: bytes) -> SealKey:
    def hkdf(info: bytes) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(secret)

    return SealKey(
        key_id,
        AESGCM(hkdf(b"crabgames seal v1")),
        hkdf(b"crabgames player token v1"),
        hkdf(b"crabgames sampled state v1"),
    )


@dataclass(frozen=True)
class Opened:
    """A request's state as the engine takes it (full, unsealed), and the instance id of the
    sealed game it came from (b"" for a sampled state or when sealing is off)."""

    state: game_pb2.GameState
    instance: bytes = b""


def new_instance() -> bytes:
    return os.urandom(INSTANCE_BYTES)


class Sealer:
    """Seals and opens states, issues and checks player tokens, and tags sampled states, with a
    ring of keys."""

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
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Sealer | None:
        """The sealer configured by CRABGAMES_SEAL_KEYS, or None (sealing off) when unset."""
        text = environ.get(ENV_VAR, "").strip()
        return cls.parse(text) if text else None

    # ----- states -----

    def seal(self, state: game_pb2.GameState, instance: bytes) -> game_pb2.GameState:
        """A copy of a full state of game `instance` with its secret part sealed under the
        primary key."""
        if len(instance) != INSTANCE_BYTES:
            raise ValueError("a sealed game needs its 16-byte instance id")
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
        plain = instance + secret.SerializeToString()
        out.sealed = head + nonce + key.aead.encrypt(nonce, plain, header(out, key.key_id))
        return out

    def open(self, state: game_pb2.GameState) -> Opened:
        """The full state behind a sealed one, and its game's instance id; BAD_SEAL when the
        seal is missing, altered, made with an unknown key or does not belong to this header,
        MALFORMED_STATE (with the path) when the state holds a field this server never writes."""
        if not state.sealed:
            raise bad_seal("this server seals its states: send the state it returned, unchanged")
        out = without_unknown_fields(state)
        which = state.WhichOneof("game")
        if state.seed or state.HasField("prng") or (which and getattr(state, which).ByteSize()):
            raise bad_seal("a sealed state keeps its seed, PRNG and game state only in the seal")
        if state.sample_tag:
            raise bad_seal("a sealed state has no sample tag", TAG)
        key_id, nonce, body = split(state.sealed)
        key = self.keys.get(key_id)
        if key is None:
            raise bad_seal(f"sealed with key {key_id[:32]!r}, which this server does not hold")
        try:
            plain = key.aead.decrypt(nonce, body, header(state, key_id))
        except InvalidTag:
            raise bad_seal(
                "the seal does not open: it was altered or belongs to another state"
            ) from None
        instance, secret = plain[:INSTANCE_BYTES], secret_part(plain[INSTANCE_BYTES:], which)
        out.ClearField("sealed")
        out.MergeFrom(secret)
        return Opened(out, instance)

    # ----- player tokens -----

    def token(
        self, state: game_pb2.GameState, instance: bytes, seat: int, key: SealKey | None = None
    ) -> str:
        """The token of `seat` in game `instance`, whose full (opened) state is `state`."""
        key = key or self.primary
        mac = hmac.new(key.token_key, token_message(state, instance, seat), sha256).digest()
        return f"{key.key_id}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"

    def tokens(self, state: game_pb2.GameState, instance: bytes) -> list[str]:
        return [self.token(state, instance, seat) for seat in range(state.num_players)]

    def check_token(self, opened: Opened, seat: int, token: str, why: str) -> None:
        """PERMISSION_DENIED unless `token` is `seat`'s token for this opened state's game."""
        if not token:
            raise PermissionDenied(f"{why} needs player {seat}'s player_token")
        key = self.keys.get(token.partition(".")[0])
        if key is None or not hmac.compare_digest(
            self.token(opened.state, opened.instance, seat, key).encode(), token.encode()
        ):
            raise PermissionDenied(f"{why}: player_token is not player {seat}'s token")

    # ----- sampled states -----

    def tag_sampled(self, state: game_pb2.GameState | bytes) -> bytes:
        """A serialized sampled state (as the engine returned it) with its sample tag."""
        data = state if isinstance(state, bytes) else state.SerializeToString()
        # The tag covers the state as protobuf serializes the parsed message, which is how
        # `open_sampled` sees it, whatever order or encoding a client re-sent it in.
        canonical = game_pb2.GameState.FromString(data).SerializeToString()
        tag = self.sample_tag(canonical, self.primary)
        return canonical + wire.message_field(SAMPLE_TAG_NUMBER, tag)

    def sample_tag(self, canonical: bytes, key: SealKey) -> bytes:
        mac = hmac.new(key.sample_key, b"crabgames sampled state\0" + canonical, sha256).digest()
        return TAG_MAGIC + bytes([len(key.key_id)]) + key.key_id.encode() + mac

    def open_sampled(self, state: game_pb2.GameState) -> game_pb2.GameState:
        """A sampled state without its tag, for the engine; BAD_SEAL (field state.sample_tag)
        unless this deployment drew it or played it on from one it drew."""
        out = without_unknown_fields(state)
        out.ClearField("sample_tag")
        tag = state.sample_tag
        key_id, mac = split_tag(tag)
        key = self.keys.get(key_id)
        if key is None:
            raise bad_seal(f"tagged with key {key_id[:32]!r}, which this server does not hold", TAG)
        expected = self.sample_tag(out.SerializeToString(), key)
        if len(mac) != MAC_BYTES or not hmac.compare_digest(expected, tag):
            raise bad_seal("not a state this server sampled, or changed since", TAG)
        return out


TAG = "state.sample_tag"
SAMPLE_TAG_NUMBER = game_pb2.GameState.DESCRIPTOR.fields_by_name["sample_tag"].number


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


def split_tag(tag: bytes) -> tuple[str, bytes]:
    if not tag.startswith(TAG_MAGIC) or len(tag) < len(TAG_MAGIC) + 1:
        raise bad_seal("a sampled state needs the sample tag the server gave it", TAG)
    size = tag[len(TAG_MAGIC)]
    start = len(TAG_MAGIC) + 1
    key_id = tag[start : start + size]
    try:
        return key_id.decode("ascii"), tag[start + size :]
    except UnicodeDecodeError:
        raise bad_seal("not a sample tag made by this server", TAG) from None


def secret_part(plain: bytes, which: str | None) -> game_pb2.GameState:
    """The sealed secret, checked: only this server writes it, so anything it would not write
    (another field, an unknown one) means a leaked key or a bug, and is refused."""
    try:
        secret = game_pb2.GameState.FromString(plain)
    except DecodeError:
        raise bad_seal("the seal's content does not parse") from None
    names = {field.name for field, _ in secret.ListFields()}
    secret.DiscardUnknownFields()
    if secret.ByteSize() != len(plain) or not names <= SECRET_FIELDS:
        raise bad_seal("the seal holds fields this server never writes")
    if which is not None and secret.WhichOneof("game") not in (None, which):
        raise bad_seal("the seal holds another game")
    return secret


def header(state: game_pb2.GameState, key_id: str) -> bytes:
    """The associated data a seal is bound to: the magic, the key id and every field of the
    state outside the seal (its secret fields are empty there), serialized. Proto3 leaves unset
    fields out, so a field added to GameState later is bound as soon as it is set, and seals
    made before it still open while it is not."""
    public = game_pb2.GameState()
    public.CopyFrom(state)
    public.ClearField("sealed")
    return (
        AD_LABEL
        + MAGIC
        + bytes([len(key_id)])
        + key_id.encode()
        + public.SerializeToString(deterministic=True)
    )


def token_message(state: game_pb2.GameState, instance: bytes, seat: int) -> bytes:
    game = state.WhichOneof("game") or ""
    return json.dumps(
        ["crabgames player token v2", game, instance.hex(), state.seed, seat]
    ).encode()
