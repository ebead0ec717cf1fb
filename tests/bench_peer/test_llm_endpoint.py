"""The peer talks to the very server our agent talks to: llm_endpoint reads it from the client's settings (no call
through the client), asks the server for its first model when the spec names none, and refuses the no-model specs."""

from __future__ import annotations

import pytest

from benchmarks.peer import PeerUnavailable, llm_endpoint
from companion.llm.client import LLMClient
from tests.support.scripted_server import ScriptedLLMServer


def test_a_server_spec_without_a_model_gets_the_servers_first_model():
    with ScriptedLLMServer(model="served-model") as server:
        endpoint = llm_endpoint(LLMClient(spec=f"openai:{server.base_url}"))

    assert (endpoint.base_url, endpoint.model) == (server.base_url, "served-model")


def test_the_specs_model_and_key_are_kept_without_asking_the_server():
    client = LLMClient(spec="openai:http://127.0.0.1:9/v1#named", api_key="k-123")  # port 9: nobody answers

    endpoint = llm_endpoint(client)

    assert (endpoint.base_url, endpoint.model, endpoint.api_key) == ("http://127.0.0.1:9/v1", "named", "k-123")


def test_the_lexical_policy_is_refused_with_the_reason():
    with pytest.raises(PeerUnavailable, match="needs a model: --llm lexical answers only WebChallenger's own prompts"):
        llm_endpoint(LLMClient(spec="lexical"))
