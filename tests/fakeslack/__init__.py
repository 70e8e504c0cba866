"""A fake Slack that speaks the real protocols (Web API, Socket Mode, response_url, signing).

Tests run the real slack_sdk WebClient, Bolt App and SocketModeHandler against it:

    with FakeSlack() as fake:
        fake.add_channel("C0001", "general")
        client = fake.client()  # WebClient(token="xoxb-test", base_url=fake.base_url)
        client.chat_postMessage(channel="C0001", text="hi")
        assert fake.messages("C0001")[0]["text"] == "hi"

        app = App(client=fake.client(), signing_secret="s")  # + your listeners
        with socket_mode_app(app, fake):  # real SocketModeHandler, closed in ms
            url = fake.new_response_url()
            eid = fake.push("slash_commands", slash_command_payload(text="x", response_url=url))
            assert fake.wait_ack(eid)["envelope_id"] == eid
            fake.wait_response(url)  # what respond() posted
"""

from .bolt import socket_mode_app
from .fake import FakeSlack
from .http_server import RESPONSE_URL
from .limits import RateLimits
from .model import RecordedCall
from .payloads import (
    block_actions_payload,
    event_envelope_payload,
    message_changed_event,
    message_deleted_event,
    message_event,
    new_event_id,
    reaction_event,
    slash_command_payload,
    url_verification_payload,
)
from .people import Act, People
from .signing import (
    HttpBody,
    command_body,
    event_body,
    interactive_body,
    signature,
    signed_headers,
    signed_request,
)
from .socket_mode import SocketModeServer

__all__ = [
    "RESPONSE_URL",
    "Act",
    "FakeSlack",
    "HttpBody",
    "People",
    "RateLimits",
    "RecordedCall",
    "SocketModeServer",
    "block_actions_payload",
    "command_body",
    "event_body",
    "event_envelope_payload",
    "interactive_body",
    "message_changed_event",
    "message_deleted_event",
    "message_event",
    "new_event_id",
    "reaction_event",
    "signature",
    "signed_headers",
    "signed_request",
    "slash_command_payload",
    "socket_mode_app",
    "url_verification_payload",
]
