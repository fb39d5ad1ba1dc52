"""The admin API through a Python client generated from its OpenAPI document (openapi-python-client).

Run by Interop/openapi_client.sh against a running `siwa serve`: adds an Apple ID, runs a headless
authorization and a native one as that Apple ID, reads its credential state, and checks that refusals
arrive as the document's Error. Everything goes through the generated client's typed functions and
models: if the document and the server disagree, this fails.
"""

import argparse
import base64
import json
import secrets
import sys
from pathlib import Path

failures = []


def expect(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL {message}", file=sys.stderr)


def claims_of(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir", required=True, help="the data directory of the running siwa serve")
    parser.add_argument("--client-dir", required=True, help="the folder holding the generated siwa_admin_client package")
    arguments = parser.parse_args()
    sys.path.insert(0, arguments.client_dir)

    from siwa_admin_client import AuthenticatedClient
    from siwa_admin_client.api.authorization import authorize_headless
    from siwa_admin_client.api.native import authorize_native, get_credential_state
    from siwa_admin_client.api.users import create_user, list_users
    from siwa_admin_client.models import Account, AccountOrder, AuthorizationOrder, Error, NativeCredential, NativeOrder

    demo = json.loads((Path(arguments.data_dir) / "demo.json").read_text())
    server = demo["server"].rstrip("/")
    client = AuthenticatedClient(base_url=server, token=demo["admin_token"], timeout=30)
    apple_id = f"openapi-{secrets.token_hex(4)}@example.com"

    # An Apple ID, added and listed.
    created = create_user.sync_detailed(
        client=client,
        body=AccountOrder(apple_id=apple_id, password=secrets.token_urlsafe(12), first_name="Ada", last_name="Open", two_factor_enabled=False),
    )
    expect(created.status_code == 200, f"POST /admin/users answered {created.status_code}: {created.content!r}")
    expect(isinstance(created.parsed, Account) and created.parsed.apple_id == apple_id, f"the new Apple ID is {created.parsed!r}")
    again = create_user.sync_detailed(client=client, body=AccountOrder(apple_id=apple_id, password="another password"))
    expect(again.status_code == 409 and isinstance(again.parsed, Error), f"adding {apple_id} twice answered {again.status_code}: {again.parsed!r}")
    listed = list_users.sync(client=client)
    expect(listed is not None and any(user.apple_id == apple_id for user in listed.users), f"GET /admin/users does not list {apple_id}")

    # A headless authorization on the demo Services ID: a code, the state back, an id_token for it.
    nonce = secrets.token_urlsafe(16)
    state = secrets.token_urlsafe(8)
    order = AuthorizationOrder(
        client_id=demo["services_id"],
        redirect_uri=demo["return_urls"][0],
        apple_id=apple_id,
        scope="name email",
        response_type="code id_token",
        response_mode="form_post",
        state=state,
        nonce=nonce,
    )
    answer = authorize_headless.sync_detailed(client=client, body=order)
    expect(answer.status_code == 200, f"POST /admin/authorizations answered {answer.status_code}: {answer.content!r}")
    if answer.status_code == 200:
        result = answer.parsed.results[0]
        expect(result["code"], "the headless authorization gave no code")
        expect(result["state"] == state, f"the state came back as {result['state']!r}")
        claims = claims_of(result["id_token"])
        expect(claims["aud"] == demo["services_id"] and claims["nonce"] == nonce, f"the id_token's claims are {claims!r}")
        subject = claims["sub"]
        refused = authorize_headless.sync_detailed(
            client=client, body=AuthorizationOrder(client_id=demo["services_id"], redirect_uri="https://elsewhere.example/cb", apple_id=apple_id)
        )
        expect(refused.status_code == 400 and isinstance(refused.parsed, Error), f"an unregistered Return URL answered {refused.status_code}")

        # The native side, as the same Apple ID: the same user, and a credential state of authorized.
        native = authorize_native.sync_detailed(client=client, body=NativeOrder(bundle_id=demo["bundle_id"], apple_id=apple_id))
        expect(native.status_code == 200 and isinstance(native.parsed, NativeCredential), f"POST /admin/native-credentials answered {native.status_code}")
        if isinstance(native.parsed, NativeCredential):
            expect(native.parsed.user == subject, f"the native credential's user is {native.parsed.user}, the web sign-in's sub {subject}")
        credential = get_credential_state.sync(client=client, client_id=demo["services_id"], user=subject)
        expect(credential is not None and credential.state == "authorized", f"the credential state is {credential!r}")

    # Without the admin token: 401, as the document says.
    stranger = AuthenticatedClient(base_url=server, token="not-the-admin-token", timeout=30)
    expect(list_users.sync_detailed(client=stranger).status_code == 401, "GET /admin/users without the admin token was not refused")

    if failures:
        print(f"openapi_client_check: {len(failures)} failure(s)", file=sys.stderr)
        return 1
    print("openapi_client_check: the generated Python client added an Apple ID and authorized it (headless and native)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
