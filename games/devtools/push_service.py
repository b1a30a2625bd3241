"""A push service on this machine, as browsers' push services behave towards a sender
(RFC 8030, 8291, 8292), for the tests and ``manage.py bench_push``: a threaded HTTP
server on 127.0.0.1 where a caller makes fake devices, each with its own P-256 key
pair and 16-byte secret, and an endpoint ``http://127.0.0.1:<port>/push/<id>``.

On a POST it checks the VAPID ``Authorization: vapid t=<JWT>,k=<key>`` (an ES256
signature by ``k``, the expected key when told one, ``aud`` this service's origin,
``exp`` ahead and within 24 hours, ``sub`` the expected contact when told one),
decrypts the aes128gcm body with the device's keys (http_ece), records the headers
(Topic, TTL, Urgency) and the payload with the time received, and answers 201; or,
per device, the answers a test plans (404, 410, 429, 500, ...), each after a delay
if asked. A request that fails the checks is answered 401 (or 400) and recorded
with what was wrong, so a test can say none did.
"""

import base64
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

MAX_JWT_SECONDS = 24 * 60 * 60


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A fake browser subscription: what a browser hands the site, and its private half."""

    id: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return _b64(point)

    def subscription(self) -> dict:
        """As ``PushSubscription.toJSON()`` gives it."""
        keys = {"p256dh": self.p256dh, "auth": _b64(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}


@dataclass
class Received:
    """One request the service answered."""

    device: str
    status: int
    at: float  # time.time() when it came in
    headers: dict = field(default_factory=dict)  # Topic, TTL, Urgency, Content-Encoding
    payload: dict | None = None  # the decrypted JSON
    claims: dict | None = None  # the VAPID JWT's
    error: str = ""  # why the checks refused it ("" when they passed)


class PushService:
    """Start it (``with PushService(...) as service``), make devices, plan answers, read
    ``received``. ``contact`` and ``public_key``: what every request must carry."""

    def __init__(self, contact: str | None = None, public_key: str | None = None):
        self.contact, self.public_key = contact, public_key
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        self._plans: dict[str, list] = {}
        self._lock = threading.Lock()
        self._count = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> "PushService":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "PushService":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def new_device(self) -> Device:
        with self._lock:
            self._count += 1
            name = f"d{self._count}"
        device = Device(
            id=name,
            endpoint=f"{self.origin}/push/{name}",
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth=secrets.token_bytes(16),
        )
        self.devices[name] = device
        return device

    def plan(self, device: Device, *answers) -> None:
        """The next answers to ``device``'s pushes, in order: a status (201, 404, 410,
        429, 500...) or (status, seconds to wait first); 201 once they are used up."""
        with self._lock:
            self._plans.setdefault(device.id, []).extend(answers)

    def to(self, device: Device) -> list[Received]:
        with self._lock:
            return [r for r in self.received if r.device == device.id]

    def taken(self) -> list[Received]:
        """The requests answered 201."""
        with self._lock:
            return [r for r in self.received if r.status == 201]

    def errors(self) -> list[str]:
        with self._lock:
            return [r.error for r in self.received if r.error]

    def wait_for(self, count: int, seconds: float = 10) -> list[Received]:
        """At least ``count`` pushes taken (201), within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            taken = self.taken()
            if len(taken) >= count:
                return taken
            time.sleep(0.01)
        raise AssertionError(f"{len(self.taken())} pushes taken of {count}, {self.errors()}")

    def _answer(self, device_id: str) -> tuple[int, float]:
        with self._lock:
            planned = self._plans.get(device_id) or []
            answer = planned.pop(0) if planned else 201
        return answer if isinstance(answer, tuple) else (answer, 0.0)

    def _record(self, received: Received) -> None:
        with self._lock:
            self.received.append(received)

    def check(self, headers, body: bytes, device: Device) -> tuple[dict, dict]:
        """(claims, payload) of a request, or ValueError saying what is wrong."""
        claims = self._vapid(headers.get("Authorization", ""))
        if headers.get("Content-Encoding", "").lower() != "aes128gcm":
            raise ValueError(f"Content-Encoding {headers.get('Content-Encoding')!r}")
        if not headers.get("TTL", "").isdigit():
            raise ValueError(f"TTL {headers.get('TTL')!r}")
        try:
            plain = http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
            )
        except Exception as error:
            raise ValueError(f"cannot decrypt: {error!r}") from None
        return claims, json.loads(plain.decode())

    def _vapid(self, authorization: str) -> dict:
        found = re.fullmatch(r"vapid t=([^,\s]+)\s*,\s*k=([A-Za-z0-9_-]+)", authorization.strip())
        if not found:
            raise ValueError(f"no VAPID Authorization: {authorization[:40]!r}")
        token, key = found.groups()
        if self.public_key and key != self.public_key.rstrip("="):
            raise ValueError("signed by another key than the site's")
        try:
            head, body, signature = token.split(".")
            header = json.loads(_unb64(head))
            raw = _unb64(signature)
            if header.get("alg") != "ES256" or len(raw) != 64:
                raise ValueError("not ES256")
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(key))
            der = utils.encode_dss_signature(
                int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
            )
            public.verify(der, f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
            claims = json.loads(_unb64(body))
        except (ValueError, InvalidSignature) as error:
            raise ValueError(f"bad VAPID token: {error!r}") from None
        now = time.time()
        if claims.get("aud") != self.origin:
            raise ValueError(f"aud {claims.get('aud')!r}, not {self.origin!r}")
        expires = claims.get("exp")
        if not isinstance(expires, int) or not now < expires <= now + MAX_JWT_SECONDS:
            raise ValueError(f"exp {expires!r} not ahead within 24 hours")
        if self.contact is not None and claims.get("sub") != self.contact:
            raise ValueError(f"sub {claims.get('sub')!r}, not {self.contact!r}")
        return claims


RECORDED_HEADERS = ("Topic", "TTL", "Urgency", "Content-Encoding")


def _handler(service: PushService):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as push services do

        def log_message(self, format, *args):  # quiet: the tests read ``received``
            pass

        def do_POST(self):
            at = time.time()
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            device_id = self.path.rsplit("/", 1)[-1]
            device = service.devices.get(device_id) if self.path.startswith("/push/") else None
            headers = {name: self.headers.get(name, "") for name in RECORDED_HEADERS}
            if device is None:
                return self._reply(404, Received(device_id, 404, at, headers, error=""))
            status, delay = service._answer(device_id)
            try:
                claims, payload = service.check(self.headers, body, device)
            except ValueError as error:
                refused = 400 if "decrypt" in str(error) or "Encoding" in str(error) else 401
                return self._reply(
                    refused, Received(device_id, refused, at, headers, error=str(error))
                )
            if delay:
                time.sleep(delay)
            self._reply(status, Received(device_id, status, at, headers, payload, claims))

        def _reply(self, status: int, received: Received) -> None:
            service._record(received)
            self.send_response(status)
            if status == 201:
                self.send_header("Location", f"{service.origin}/message/{len(service.received)}")
            if status == 429:
                self.send_header("Retry-After", "1")
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler
