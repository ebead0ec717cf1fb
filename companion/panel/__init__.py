"""The side panel's and options page's services: handlers that answer the extension's panel requests (site card,
section outlines, LLM settings, passive learning) from memory, PageMem and the LLM catalogue.

They sit above the stages and below the commands: the bridge (transport) knows messages, not memory, so
`webchallenger serve` installs these on its hub (commands/serve.py), as agent/service.py installs the task service."""
