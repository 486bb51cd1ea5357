"""Provider authentication tokens as APNs checks them: an ES256 JWT ({alg, kid} / {iss, iat}) signed with the
team's P-256 key, no older than an hour, refreshed on a connection no more often than every 20 minutes."""

import base64
import json

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

MAX_AGE = 3600
MAX_FUTURE = 60
MIN_REFRESH_INTERVAL = 1200


class ProviderTokenError(Exception):
    """A token APNs refuses; `status` and `reason` are APNs's answer."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def load_key(argument):
    """Reads `KEYID=PATH`: a .p8 (PKCS#8 private key) or a public key PEM, P-256. Returns (kid, public key)."""
    kid, separator, path = argument.partition("=")
    if not separator or not kid or not path:
        raise ValueError(f"--key {argument!r}: expected KEYID=PATH")
    with open(path, "rb") as file:
        data = file.read()
    try:
        key = serialization.load_pem_private_key(data, password=None).public_key()
    except (ValueError, TypeError):
        try:
            key = serialization.load_pem_public_key(data)
        except ValueError as error:
            raise ValueError(f"{path}: neither a PKCS#8 private key nor a public key PEM ({error})") from None
    if not isinstance(key, ec.EllipticCurvePublicKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError(f"{path}: not a P-256 (prime256v1) key")
    return kid, key


def _decode(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


class ProviderTokens:
    """Verifies tokens (each distinct token once: APNs caches them too) and tracks refreshes per connection."""

    def __init__(self, keys, team):
        self.keys = keys
        self.team = team
        self.verified = {}      # token -> (kid, iat)
        self.expired = set()    # tokens told ExpiredProviderToken by the script: refused from then on
        self.accepted = set()
        self.first_seen = []    # accepted tokens: [{"kid", "iat", "firstSeen"}] in the order first accepted

    def _verify(self, token):
        try:
            header_part, claims_part, signature_part = token.split(".")
            header = json.loads(_decode(header_part))
            claims = json.loads(_decode(claims_part))
            signature = _decode(signature_part)
        except (ValueError, UnicodeDecodeError):
            raise ProviderTokenError(403, "InvalidProviderToken") from None
        if not isinstance(header, dict) or not isinstance(claims, dict):
            raise ProviderTokenError(403, "InvalidProviderToken")
        key = self.keys.get(header.get("kid"))
        iat = claims.get("iat")
        if (header.get("alg") != "ES256" or key is None or claims.get("iss") != self.team
                or not isinstance(iat, int) or isinstance(iat, bool) or len(signature) != 64):
            raise ProviderTokenError(403, "InvalidProviderToken")
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            key.verify(der, f"{header_part}.{claims_part}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ProviderTokenError(403, "InvalidProviderToken") from None
        return header["kid"], iat

    def check(self, authorization, connection, now):
        """Checks an `authorization` header on `connection` at `now`; returns (kid, iat) or raises."""
        if authorization is None:
            raise ProviderTokenError(403, "MissingProviderToken")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise ProviderTokenError(403, "InvalidProviderToken")
        if token in self.expired:
            raise ProviderTokenError(403, "ExpiredProviderToken")
        identity = self.verified.get(token)
        if identity is None:
            identity = self._verify(token)
            self.verified[token] = identity
        kid, iat = identity
        if iat > now + MAX_FUTURE:
            raise ProviderTokenError(403, "InvalidProviderToken")
        if now - iat > MAX_AGE:
            raise ProviderTokenError(403, "ExpiredProviderToken")
        if connection.token != token:
            # Replacing a token APNs refused as expired is what a provider must do, not a refresh too soon.
            if (connection.token is not None and connection.token not in self.expired
                    and now - connection.token_since < MIN_REFRESH_INTERVAL):
                raise ProviderTokenError(429, "TooManyProviderTokenUpdates")
            connection.token, connection.token_since = token, now
        if token not in self.accepted:
            self.accepted.add(token)
            self.first_seen.append({"kid": kid, "iat": iat, "firstSeen": now})
        return kid, iat

    def expire(self, authorization):
        """The script's `expireProviderToken`: this request's token is refused as expired from now on."""
        if authorization:
            self.expired.add(authorization.partition(" ")[2])
