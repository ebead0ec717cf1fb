"""An OpenAI-compatible server for the peer tests: our pipeline's prompts get the lexical policy, browser-use's get
a click on the element whose text the task quotes, read from the browser state browser-use itself sent. The real
HTTP path runs on both sides (our openai client; browser-use's ChatOpenAI in its own venv)."""

from __future__ import annotations

import json
import re

from companion.llm.lexical import LexicalLLMServer
from companion.llm.scripted_server import ScriptedReply

# browser-use's browser state lists an element as "[12]<button ... />" with its text on the next, indented line.
_ELEMENT = r"\[(\d+)\]<[a-z]+[^\n]*\n\s*{text}\n"
PROMPT_TOKENS, COMPLETION_TOKENS = 1000, 20  # what this server reports per browser-use call


class PeerScriptedServer(LexicalLLMServer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.peer_calls = 0

    def _next_reply(self, prompt: str, last_user: str) -> ScriptedReply:
        if prompt or "<user_request>" not in last_user:  # one of ours: it names its prompt in a header
            return super()._next_reply(prompt, last_user)
        self.peer_calls += 1
        task = re.search(r"<user_request>(.*?)</user_request>", last_user, re.S).group(1)
        target = re.search(r'"([^"]+)"', task).group(1)
        found = re.findall(_ELEMENT.format(text=re.escape(target)), last_user)
        action = {"click": {"index": int(found[0])}} if found else {"done": {"text": f"no element says {target!r}", "success": False}}
        content = json.dumps({"evaluation_previous_goal": "", "memory": "", "next_goal": f"click {target}", "action": [action]})
        return ScriptedReply(content=content, prompt_tokens=PROMPT_TOKENS, completion_tokens=COMPLETION_TOKENS)
