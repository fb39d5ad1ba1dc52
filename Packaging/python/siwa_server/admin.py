"""A small typed client of the siwa admin API, written on its OpenAPI document
(``GET /admin/openapi.yaml``, ``Sources/AppleIDServer/OpenAPI/openapi.yaml``).

Each method is the document's ``operationId`` in snake case (``createUser`` is
:meth:`AdminClient.create_user`); bodies and answers are the document's schemas, as ``TypedDict``s
with the wire names. Standard library only.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional, TypedDict

__all__ = [
    "AdminClient",
    "AdminError",
    "Account",
    "AccountOrder",
    "AuthorizationOrder",
    "AuthorizationResults",
    "Clock",
    "MailSummary",
    "MailDetail",
]


class AccountOrder(TypedDict, total=False):
    apple_id: str
    password: str
    first_name: str
    last_name: str
    email: str
    real_user_status: int
    two_factor_enabled: bool
    additional_emails: List[str]


class TeamSubject(TypedDict):
    team_id: str
    sub: str


class Account(TypedDict, total=False):
    apple_id: str
    first_name: str
    last_name: str
    email: str
    additional_emails: List[str]
    real_user_status: int
    deleted: bool
    two_factor_enabled: bool
    current_two_factor_code: str
    subjects: List[TeamSubject]


class AuthorizationOrder(TypedDict, total=False):
    client_id: str
    redirect_uri: str
    response_type: str
    response_mode: str
    scope: str
    state: str
    nonce: str
    code_challenge: str
    code_challenge_method: str
    apple_id: str
    first_name: str
    last_name: str
    hide_email: bool
    count: int


class AuthorizationResults(TypedDict):
    results: List[Dict[str, str]]


class Clock(TypedDict):
    now: str
    offset_seconds: int
    shifted: bool


class MailSummary(TypedDict, total=False):
    id: str
    direction: str
    to: str
    destination: str
    relay_address: str
    subject: str
    received_at: str
    size: int
    delivery: str
    attempts: int
    last_error: str


class MailHeader(TypedDict):
    name: str
    value: str


class MailDetail(TypedDict):
    message: MailSummary
    headers: List[MailHeader]
    body: str
    raw: str
    raw_base64: str


class AdminError(Exception):
    """A refusal of the admin API: the HTTP status, ``error`` and ``error_description``."""

    def __init__(self, status: int, error: str, description: str, call: str) -> None:
        super().__init__(f"{description or error} ({error} from {call} -> {status})")
        self.status = status
        self.error = error
        self.description = description


class AdminClient:
    """The admin API of one ``siwa serve`` (its URL and admin token, both in ``demo.json``)."""

    def __init__(self, url: str, token: str, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    # -- transport -----------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, query: Optional[Dict[str, Any]] = None) -> Any:
        """Sends one call; answers the decoded JSON (``None`` for 204) or raises :class:`AdminError`."""
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as failure:
            raw = failure.read()
            try:
                answer = json.loads(raw or b"{}")
            except ValueError:
                answer = {}
            raise AdminError(
                failure.code, answer.get("error", "http_error"), answer.get("error_description", raw.decode(errors="replace")), f"{method} {path}"
            ) from None
        return json.loads(raw) if raw else None

    @staticmethod
    def _segment(value: str) -> str:
        return urllib.parse.quote(value, safe="")

    # -- users ---------------------------------------------------------------------------------

    def list_users(self) -> List[Account]:
        return self.call("GET", "/admin/users")["users"]

    def create_user(self, order: AccountOrder) -> Account:
        return self.call("POST", "/admin/users", dict(order))

    def update_user(self, apple_id: str, order: AccountOrder) -> Account:
        return self.call("PATCH", f"/admin/users/{self._segment(apple_id)}", dict(order))

    def delete_user(self, apple_id: str) -> None:
        self.call("DELETE", f"/admin/users/{self._segment(apple_id)}")

    def stop_using_app(self, apple_id: str, group_id: str) -> None:
        self.call("POST", f"/admin/users/{self._segment(apple_id)}/stop-using", {"group_id": group_id})

    def set_relay_forwarding(self, apple_id: str, team_id: str, enabled: bool) -> None:
        self.call("POST", f"/admin/users/{self._segment(apple_id)}/relay-forwarding", {"team_id": team_id, "enabled": enabled})

    # -- authorization -------------------------------------------------------------------------

    def authorize_headless(self, order: AuthorizationOrder) -> AuthorizationResults:
        return self.call("POST", "/admin/authorizations", dict(order))

    def get_credential_state(self, client_id: str, user: Optional[str] = None, apple_id: Optional[str] = None) -> str:
        return self.call("GET", "/admin/credential-state", query={"client_id": client_id, "user": user, "apple_id": apple_id})["state"]

    # -- clients -------------------------------------------------------------------------------

    def get_client(self, client: str) -> Dict[str, Any]:
        return self.call("GET", f"/admin/clients/{self._segment(client)}")

    def add_return_url(self, client: str, url: str) -> None:
        self.call("POST", f"/admin/clients/{self._segment(client)}/return-urls", {"url": url})

    def list_client_requests(self, client: str) -> List[Dict[str, Any]]:
        return self.call("GET", f"/admin/clients/{self._segment(client)}/requests")["requests"]

    def set_notification_endpoint(self, group: str, url: Optional[str]) -> None:
        self.call("PUT", f"/admin/app-groups/{self._segment(group)}/notification-endpoint", {"url": url})

    def list_deliveries(self, **query: Any) -> Dict[str, Any]:
        return self.call("GET", "/admin/deliveries", query=query)

    # -- development ---------------------------------------------------------------------------

    def reset_server(self) -> None:
        self.call("POST", "/admin/reset")

    def arm_token_fault(self, client_id: str, fault: str, delay_seconds: Optional[float] = None) -> None:
        body: Dict[str, Any] = {"client_id": client_id, "fault": fault}
        if delay_seconds is not None:
            body["delay_seconds"] = delay_seconds
        self.call("POST", "/admin/faults", body)

    def disarm_token_fault(self, client: str) -> None:
        self.call("DELETE", f"/admin/faults/{self._segment(client)}")

    # -- mail ----------------------------------------------------------------------------------

    def list_mail(self, to: Optional[str] = None, limit: Optional[int] = None, wait: Optional[float] = None, since: Optional[str] = None) -> List[MailSummary]:
        return self.call("GET", "/admin/mail", query={"to": to, "limit": limit, "wait": wait, "since": since})["messages"]

    def get_mail(self, id: str) -> MailDetail:
        return self.call("GET", f"/admin/mail/{self._segment(id)}")

    # -- clock ---------------------------------------------------------------------------------

    def get_clock(self) -> Clock:
        return self.call("GET", "/admin/clock")

    def advance_clock(self, seconds: float) -> Clock:
        return self.call("POST", "/admin/clock/advance", {"seconds": seconds})

    def set_clock(self, time: str) -> Clock:
        return self.call("POST", "/admin/clock/set", {"time": time})

    def reset_clock(self) -> Clock:
        return self.call("POST", "/admin/clock/reset")
