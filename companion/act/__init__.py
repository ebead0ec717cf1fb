"""The action module: candidate gathering, compound workflows and execution (WebChallenger §2.5, A.4, A.5).

    ctx = AgentContext(session=..., task=..., files_dir=..., store=..., confirm=...)
    await ctx.refresh()                                   # pagemem of the current page
    candidates = await gather_candidates(ctx, observation, exclude=failed_keys)
    outcome = await execute(ctx, candidates[i], reason)   # Outcome(actions, url_changed, modal_opened) or ActionFailed
"""

from companion.act.candidates import gather_candidates
from companion.act.context import AgentContext
from companion.act.errors import ActionFailed
from companion.act.models import Candidate, Outcome
from companion.act.routing import element_action, execute

__all__ = ["AgentContext", "ActionFailed", "Candidate", "Outcome", "element_action", "execute", "gather_candidates"]
