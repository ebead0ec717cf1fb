"""The browser-use side of the benchmarks. It runs INSIDE .venv-peer, never in the companion's venv.

browser-use pins versions that would downgrade the companion's own (pyproject.toml, the `peer` extra), so it
lives in its own venv and this script is started there by benchmarks/peer.py. It imports nothing of
companion (that venv has none of it): the standard library and browser_use only. Everything it must do the same
way as our side (the headless flags, the offline resolver rules, the MiniWoB setup scripts) comes in the job, so
there is one copy of each, on our side.

Protocol: one JSON object per line on stdin, one JSON reply per line on stdout; everything else the process
prints (browser-use logs a lot) goes to stderr. Jobs:
    {"op": "serialize", "url": ..., "runs": N, "browser": {...}}      browser-use's DOM serialization of a page
    {"op": "episode", "url": ..., "seed": S, "max_steps": N, "llm": {...}, "scripts": {...}, "browser": {...}, ...}
    {"op": "quit"}
A reply is {"ok": true, ...figures} or {"ok": false, "error": "..."}.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

# Read by browser_use's config when it is imported: no telemetry, cloud sync, version check or hints (the
# machine may have no network, and none of it is part of what is measured); its config files in a temp dir.
_QUIET_ENV = {
    "ANONYMIZED_TELEMETRY": "false", "BROWSER_USE_CLOUD_SYNC": "false", "BROWSER_USE_VERSION_CHECK": "false",
    "BROWSER_USE_CLOUD_HINTS": "false", "SKIP_LLM_API_KEY_VERIFICATION": "true",
}

POLL_S = 0.25  # as the harness on our side: how often the page is asked whether the episode is done
READY_TIMEOUT_S = 10.0
SETTLE_S = 3.0  # the step that ended the episode is usually still in flight: it gets this long to finish
STOP_GRACE_S = 30.0
WORK_DIR = ""  # set in main(): every profile, file and config dir of this worker, removed at exit


def _wrap(body: str, args: list) -> str:
    """A WebDriver-style script body (`arguments[i]`, `return`) as one CDP expression: the same scripts as our side."""
    return f"(function() {{ {body} \n}}).apply(null, {json.dumps(args)})"


class Browser:
    """One browser-use BrowserSession on Debian's Chromium with the flags our launcher uses."""

    def __init__(self, spec: dict):
        self.spec = spec
        self.session = None

    async def start(self):
        from browser_use import BrowserProfile, BrowserSession

        spec = self.spec
        width, height = spec.get("window_size", [1280, 900])
        profile = BrowserProfile(
            headless=True, chromium_sandbox=False, enable_default_extensions=False,
            executable_path=spec.get("executable", "/usr/bin/chromium"),
            user_data_dir=tempfile.mkdtemp(prefix="profile-", dir=WORK_DIR or None),  # fresh each time
            args=list(spec.get("args", [])), viewport={"width": width, "height": height},
            window_size={"width": width, "height": height}, keep_alive=True)
        self.session = BrowserSession(browser_profile=profile)
        await self.session.start()
        return self

    async def evaluate(self, body: str, *args):
        cdp = await self.session.get_or_create_cdp_session(focus=False)  # never move the agent's focus
        reply = await cdp.cdp_client.send.Runtime.evaluate(
            params={"expression": _wrap(body, list(args)), "returnByValue": True, "awaitPromise": True},
            session_id=cdp.session_id)
        if reply.get("exceptionDetails"):
            details = reply["exceptionDetails"]
            raise RuntimeError(f"page script failed: {details.get('exception', {}).get('description') or details.get('text')}")
        return reply.get("result", {}).get("value")

    async def close(self):
        if self.session is not None:
            try:
                await self.session.kill()
            except Exception:  # the browser may already be gone
                pass
            self.session = None


# --------------------------------------------------------------------------- DOM serialization


async def serialize(job: dict, browser: Browser) -> dict:
    """What browser-use does to show a page to its LLM: CDP snapshot, DOM and accessibility trees, the enhanced
    tree, then the serializer, then the text. Timed end to end, after one warm-up, like our side."""
    from browser_use.dom.service import DomService

    await browser.session.navigate_to(job["url"])
    runs = max(1, int(job.get("runs", 3)))
    total, tree, serializer = [], [], []
    state = text = None
    for i in range(runs + 1):
        t0 = time.perf_counter()
        state, _, timing = await DomService(browser.session).get_serialized_dom_tree()
        text = state.llm_representation()
        ms = (time.perf_counter() - t0) * 1000
        if i == 0:
            continue  # warm-up
        total.append(ms)
        tree.append(float(timing.get("get_dom_tree_total_ms", 0.0)))
        serializer.append(max(0.0, ms - tree[-1]))
    return {"ok": True, "ms": total, "dom_tree_ms": tree, "serialize_ms": serializer,
            "elements": len(state.selector_map), "text": text if job.get("want_text", True) else None, "chars": len(text)}


# --------------------------------------------------------------------------- MiniWoB episode


class CallCounter:
    """Every chat-completion request browser-use's ChatOpenAI makes, counted on the wire (retries included):
    calls, tokens as the server reported them, and time spent waiting for the answers."""

    def __init__(self):
        self.calls = self.errors = self.prompt_tokens = self.completion_tokens = 0
        self.seconds = 0.0
        self._sent: dict[int, float] = {}

    def client(self, timeout: float):
        import httpx

        return httpx.AsyncClient(timeout=timeout, event_hooks={"request": [self._request], "response": [self._response]})

    async def _request(self, request) -> None:
        self._sent[id(request)] = time.monotonic()

    async def _response(self, response) -> None:
        if not response.request.url.path.endswith("/chat/completions"):
            return
        started = self._sent.pop(id(response.request), None)
        await response.aread()
        if started is not None:
            self.seconds += time.monotonic() - started
        self.calls += 1
        if response.status_code != 200:
            self.errors += 1
            return
        try:
            usage = json.loads(response.content).get("usage") or {}
        except ValueError:
            return
        self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
        self.completion_tokens += int(usage.get("completion_tokens") or 0)


def _action_line(action: dict) -> str:
    action = {k: v for k, v in action.items() if k != "interacted_element"}
    if not action:
        return "?"
    name, params = next(iter(action.items()))
    return f"{name}({json.dumps(params, ensure_ascii=False, sort_keys=True)})" if params else name


async def episode(job: dict) -> dict:
    """One MiniWoB episode set up as our harness sets it up, then browser-use's Agent on the utterance."""
    from browser_use import Agent
    from browser_use.llm.openai.chat import ChatOpenAI

    scripts, llm_spec = job["scripts"], job["llm"]
    out = {"ok": True, "utterance": "", "ended_by": "harness", "reward": None, "reason": "", "agent_status": "",
           "answer": "", "steps": 0, "actions": [], "wall_s": 0.0}
    browser = await Browser(job["browser"]).start()
    try:
        await browser.session.navigate_to(job["url"])
        started = await browser.evaluate(scripts["start"], job["seed"], job["max_time_ms"])
        if not isinstance(started, dict) or not started.get("ok"):
            return {**out, "reason": f"harness: episode setup failed: {(started or {}).get('error', 'the start script returned nothing')}"}
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not await browser.evaluate(scripts["ready"]):
            if time.monotonic() > deadline:
                return {**out, "reason": f"harness: episode setup failed: WOB_TASK_READY stayed false for {READY_TIMEOUT_S:g} s"}
            await asyncio.sleep(0.05)
        out["utterance"] = utterance = " ".join((await browser.evaluate(scripts["utterance"]) or "").split())
        if not utterance:
            return {**out, "reason": "harness: episode setup failed: the episode has no utterance"}

        counter = CallCounter()
        # browser-use's own limits (75 s per LLM call, 180 s per step) are sized for cloud APIs; a CPU model would be
        # cut short by them. As our harness raises MiniWoB's limit, the episode's wall limit is the only one here.
        limit = float(job["episode_timeout_s"])
        llm = ChatOpenAI(model=llm_spec["model"], base_url=llm_spec["base_url"], api_key=llm_spec.get("api_key") or "not-needed",
                         timeout=limit, http_client=counter.client(limit))
        page_done = {"done": False}

        async def should_stop() -> bool:
            return page_done["done"]

        # browser-use's defaults, but for what the setup needs: the page is already open (no URL opening), the
        # model may be text-only (no screenshots, as our agent), and the page's reward is the judge.
        agent = Agent(task=utterance, llm=llm, browser_session=browser.session, use_vision=False, directly_open_url=False,
                      use_judge=False, calculate_cost=False, enable_signal_handler=False, llm_timeout=int(limit), step_timeout=int(limit),
                      register_should_stop_callback=should_stop, file_system_path=tempfile.mkdtemp(prefix="files-", dir=WORK_DIR or None))
        t0 = time.monotonic()
        run = asyncio.create_task(agent.run(max_steps=job["max_steps"]))
        state: dict = {}
        timed_out, ended = False, None
        while not run.done():
            state = await browser.evaluate(scripts["state"]) or {"missing": True}
            if state.get("done") or state.get("missing"):
                break
            if time.monotonic() - t0 > job["episode_timeout_s"]:
                timed_out = True
                break
            await asyncio.wait({run}, timeout=POLL_S)
        if state.get("done"):
            ended = time.monotonic()
            page_done["done"] = True
            await asyncio.wait({run}, timeout=SETTLE_S)
        if not run.done():
            agent.stop()
            run.cancel()
            await asyncio.wait({run}, timeout=STOP_GRACE_S)
        run_error = None
        if run.done() and not run.cancelled() and run.exception() is not None:
            run_error = run.exception()
        out["wall_s"] = round((ended or time.monotonic()) - t0, 2)
        if not (state.get("done") or state.get("missing")):
            for _ in range(4):  # the last action may end the episode a moment after the agent ended
                state = await browser.evaluate(scripts["state"]) or {"missing": True}
                if state.get("done") or state.get("missing"):
                    break
                await asyncio.sleep(POLL_S)

        history = agent.history
        out["steps"] = history.number_of_steps()
        out["actions"] = [_action_line(a) for a in history.model_actions()]
        out["answer"] = history.final_result() or ""
        if page_done["done"] or agent.state.stopped or run.cancelled():
            out["agent_status"] = "stopped"
        elif history.is_done():
            out["agent_status"] = "done" if history.is_successful() is not False else "failed"
        elif run_error is not None:
            out["agent_status"] = "error"
        elif out["steps"] >= job["max_steps"]:
            out["agent_status"] = "max_steps"
        else:
            out["agent_status"] = "failed"
        out.update(calls=counter.calls, llm_errors=counter.errors, prompt_tokens=counter.prompt_tokens,
                   completion_tokens=counter.completion_tokens, llm_seconds=round(counter.seconds, 2))
        if state.get("done"):
            raw = float(state.get("raw") or 0.0)
            why = state.get("reason")
            out.update(ended_by="miniwob", reward=raw, reason=f"MiniWoB ended the episode: raw reward {raw:g}" + (f" ({why})" if why else ""))
        elif state.get("missing"):
            out.update(ended_by="agent", reason="the agent left the task page (the tab's page has no MiniWoB episode)")
        elif timed_out:
            out.update(ended_by="timeout", reason=f"timeout: the episode did not end within {job['episode_timeout_s']:g} s")
        else:
            errors = [e for e in history.errors() if e]
            why = (f"{type(run_error).__name__}: {run_error}" if run_error else "") or (errors[-1] if errors else "") or out["answer"]
            why = " ".join(str(why).split())[:500]
            out.update(ended_by="agent", reason=f"the agent ended first ({out['agent_status']}" + (f": {why})" if why else ")"))
        return out
    finally:
        await browser.close()


# --------------------------------------------------------------------------- the loop


async def serve(reply) -> None:
    loop = asyncio.get_running_loop()
    serializer: Browser | None = None
    try:
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            try:
                job = json.loads(line)
                if job.get("op") == "quit":
                    return
                if job.get("op") == "serialize":
                    if serializer is None:
                        serializer = await Browser(job["browser"]).start()
                    result = await serialize(job, serializer)
                elif job.get("op") == "episode":
                    result = await episode(job)
                elif job.get("op") == "version":
                    import importlib.metadata

                    result = {"ok": True, "browser_use": importlib.metadata.version("browser-use")}
                else:
                    result = {"ok": False, "error": f"unknown op {job.get('op')!r}"}
            except Exception as exc:  # one failed job is a reported figure; the worker goes on
                traceback.print_exc(file=sys.stderr)
                result = {"ok": False, "error": f"{type(exc).__name__}: {' '.join(str(exc).split())[:800]}"}
            reply.write(json.dumps(result) + "\n")
            reply.flush()
    finally:
        if serializer is not None:
            await serializer.close()


def main() -> int:
    global WORK_DIR
    WORK_DIR = tempfile.mkdtemp(prefix="webchallenger-peer-")
    for key, value in _QUIET_ENV.items():
        os.environ.setdefault(key, value)
    os.environ.setdefault("BROWSER_USE_CONFIG_DIR", os.path.join(WORK_DIR, "config"))
    # Replies get the real stdout; anything else written to fd 1 (logs, prints) lands on stderr.
    reply = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        asyncio.run(serve(reply))
    finally:
        shutil.rmtree(WORK_DIR, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
