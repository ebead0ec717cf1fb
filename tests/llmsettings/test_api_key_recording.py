"""An API key sent by the options page never stays in a recording of the session (serve --record): the message
that carried it is masked once the companion has read it."""

from __future__ import annotations

import pytest

from companion import typed_secrets
from companion.bridge.hub import BridgeHub
from companion.bridge.recorder import Recorder
from companion.panel.llm_settings import LLMSettingsService
from companion.protocol import LLMSettingsSet

KEY = "sk-rec-0123456789abcdefQRST"


@pytest.fixture
def recorder(tmp_path):
    typed_secrets.forget_all()
    recording = Recorder(tmp_path / "session.jsonl")
    yield recording
    recording.close()
    typed_secrets.forget_all()


def test_the_message_that_carried_a_key_is_masked_in_the_recording(recorder, config):
    """The llm_settings_set line recorded before the companion read the key no longer holds it afterwards."""
    message = LLMSettingsSet(id="s1", spec="openai:https://llm.example.com/v1#m", api_key=KEY)
    recorder.record("in", message.model_dump_json(), "session-1")  # as the hub records it, before the handler
    reply = LLMSettingsService(BridgeHub(recorder))._on_set(None, message)
    assert reply.saved and reply.api_key_hint == "QRST"
    recorder.record("out", reply.model_dump_json(), "session-1")
    text = recorder.path.read_text()
    assert "llm_settings_set" in text and KEY not in text
