// How one task reads in the side panel, for the current task and the history alike: its steps (page,
// observation, reason, actions, notes), its answer, how it ended and what it cost (duration, LLM calls, tokens).

function item(cls, text) {
  const el = document.createElement("div");
  el.className = cls;
  el.textContent = text;
  return el;
}

// The steps of `events` into the <ol> `list` (emptied first): one <li> per step. What comes before the first
// step (a follow-up's note, the bookmarks chosen) goes into `preface` (emptied first), so the numbers are steps.
export function renderSteps(list, events, preface = null) {
  list.textContent = "";
  if (preface) preface.textContent = "";
  let li = null;
  const entry = () => li || (preface && !list.children.length ? preface : (li = list.appendChild(document.createElement("li"))));
  for (const ev of events || []) {
    switch (ev.kind) {
      case "step":
        li = list.appendChild(document.createElement("li"));
        li.className = "step";
        li.appendChild(item("page", `${ev.page || ""} — ${ev.url || ""}`));
        break;
      case "observation":
        entry().appendChild(item("obs", ev.text));
        break;
      case "action":
        if (ev.reason) entry().appendChild(item("reason", `Reason: ${ev.reason}`));
        for (const a of ev.actions && ev.actions.length ? ev.actions : [ev.text]) entry().appendChild(item("act", `→ ${a}`));
        break;
      case "note":
      case "confirm":
        entry().appendChild(item("note", ev.text));
        break;
      case "started":
        // A task resumed from its checkpoint: its earlier steps stay above, and where it went on is said.
        if ((events || []).indexOf(ev) > 0) entry().appendChild(item("resume-note", ev.text));
        break;
      case "paused":
      case "resumed":
        entry().appendChild(item("pause-note", ev.text));
        break;
      case "error":
        entry().appendChild(item("err", ev.text));
        break;
      default:
        break;
    }
  }
}

// A task that ended before it was done can go on from its checkpoint (the panel's Resume).
export function resumable(task) {
  const fin = finishedEvent(task);
  return Boolean(task && !task.running && !task.interrupted && fin && fin.status !== "done");
}

// How the task ended last (a resumed task holds the end it was resumed from too).
export function finishedEvent(task) {
  const events = task && task.events ? task.events : [];
  if (task && task.running) return null;
  return [...events].reverse().find((ev) => ev.kind === "finished") || null;
}

export function answerOf(task) {
  if (!task) return "";
  if (task.answer) return task.answer;
  const ev = (task.events || []).find((e) => e.kind === "answer");
  return ev ? ev.answer || ev.text || "" : "";
}

function seconds(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

// "done · 14 s · 6 LLM calls · 4,210 tokens" (what is known so far while it runs).
export function costLine(task, now = Date.now()) {
  if (!task) return "";
  const parts = [];
  const fin = finishedEvent(task);
  if (fin) parts.push(fin.status);
  else if (task.interrupted) parts.push("no news since the browser restarted");
  else if (task.running) parts.push(task.paused ? "paused" : "running");
  if (task.started_at) parts.push(seconds((task.finished_at || (task.running ? now : task.started_at)) - task.started_at));
  const usage = task.usage || (fin && fin.usage);
  if (usage) {
    parts.push(`${usage.calls} LLM call${usage.calls === 1 ? "" : "s"}`);
    parts.push(`${(usage.prompt_tokens + usage.completion_tokens).toLocaleString("en-US")} tokens`);
  }
  return parts.join(" · ");
}

// The finished line under the answer: how it ended, with why when it did not end done.
export function statusLine(task) {
  const fin = finishedEvent(task);
  if (!fin) return "";
  return `Finished: ${fin.status}${fin.status !== "done" && fin.text ? ` (${fin.text})` : ""}`; // its cost: costLine
}
