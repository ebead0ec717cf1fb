"""An OpenAI-compatible server for the peer tests: our pipeline's prompts get the lexical policy, browser-use's get
a click on the element whose text the task quotes, read from the browser state browser-use itself sent. The real
HTTP path runs on both sides (our openai client; browser-use's ChatOpenAI in its own venv)."""

from __future__ import annotations

import json
import re

from benchmarks.lexical import LexicalLLMServer
from benchmarks.openai_server import ChatReply, RecordedRequest

# browser-use's browser state lists an element as "[12]<button ... />" with its text on the next, indented line.
_ELEMENT = r"\[(\d+)\]<[a-z]+[^\n]*\n\s*{text}\n"
PROMPT_TOKENS, COMPLETION_TOKENS = 1000, 20  # what this server reports per browser-use call


class PeerScriptedServer(LexicalLLMServer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.peer_calls = 0

    def reply_to(self, record: RecordedRequest) -> ChatReply:
        last_user = record.last_user
        if record.prompt or "<user_request>" not in last_user:  # one of ours: it names its prompt in a header
            return super().reply_to(record)
        self.peer_calls += 1
        task = re.search(r"<user_request>(.*?)</user_request>", last_user, re.S).group(1)
        target = re.search(r'"([^"]+)"', task).group(1)
        found = re.findall(_ELEMENT.format(text=re.escape(target)), last_user)
        action = {"click": {"index": int(found[0])}} if found else {"done": {"text": f"no element says {target!r}", "success": False}}
        content = json.dumps({"evaluation_previous_goal": "", "memory": "", "next_goal": f"click {target}", "action": [action]})
        return ChatReply(content=content, prompt_tokens=PROMPT_TOKENS, completion_tokens=COMPLETION_TOKENS)
