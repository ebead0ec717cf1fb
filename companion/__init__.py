"""WebChallenger companion: the local half of the agent (bridge, PageMem, observation, actions, memory, LLM)."""

__version__ = "0.1.0"
