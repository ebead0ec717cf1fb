// The task side panel: type a task, watch each step live (observation, reason, action), see the answer, Stop.
// It renders chrome.storage.session ("task", written by the worker from the companion's task_update
// messages; "connection", the link status) and re-renders on every change, so closing and reopening the
// panel mid-task loses nothing. Requests go to the worker as runtime messages (bg/tasks.js).
const $ = (id) => document.getElementById(id);
let current = null;

function ask(request) {
  return chrome.runtime.sendMessage(request).then((reply) => {
    if (reply && reply.error) throw new Error(reply.error);
    return reply;
  });
}

// The tab the task runs in: the active web page of the current window. When this panel is itself open
// as a tab (tests, or the user opened sidepanel.html directly), the most recently used web page instead.
export async function targetTab() {
  const isWeb = (t) => /^(https?|file):/.test(t.url || "");
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (active && isWeb(active)) return active;
  const tabs = (await chrome.tabs.query({})).filter(isWeb);
  tabs.sort((a, b) => (b.lastAccessed || 0) - (a.lastAccessed || 0));
  return tabs[0] || null;
}

function renderConnection(connection) {
  const status = (connection && connection.status) || "connecting";
  $("conn").textContent = status;
  $("conn").className = `conn ${status}`;
  $("pairing").hidden = status === "connected";
  $("conn-detail").textContent = (connection && connection.detail) || "";
  $("start").disabled = status !== "connected" || Boolean(current && current.running);
}

function item(cls, text) {
  const el = document.createElement("div");
  el.className = cls;
  el.textContent = text;
  return el;
}

function renderTask(task) {
  current = task;
  const steps = $("steps");
  steps.textContent = "";
  $("answer-box").hidden = true;
  $("task-status").textContent = "";
  $("notice").textContent = (task && task.notice) || "";
  const running = Boolean(task && task.running);
  $("stop").disabled = !running;
  $("start").disabled = running || $("conn").textContent !== "connected";
  const confirm = task && task.confirm;
  $("confirm").hidden = !confirm;
  $("confirm-text").textContent = confirm ? confirm.description : "";
  if (!task) return;
  let li = null;
  const entry = () => li || (li = steps.appendChild(document.createElement("li")));
  for (const ev of task.events) {
    switch (ev.kind) {
      case "step":
        li = steps.appendChild(document.createElement("li"));
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
      case "error":
        entry().appendChild(item("err", ev.text));
        break;
      case "answer":
        $("answer").textContent = ev.answer || ev.text;
        $("answer-box").hidden = false;
        break;
      case "finished": {
        const calls = ev.usage ? ` · ${ev.usage.calls} LLM calls, ${ev.usage.prompt_tokens + ev.usage.completion_tokens} tokens` : "";
        $("task-status").textContent = `Finished: ${ev.status}${ev.status !== "done" && ev.text ? ` (${ev.text})` : ""}${calls}`;
        break;
      }
      default:
        break;
    }
  }
}

$("task-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("task").value.trim();
  $("notice").textContent = "";
  if (!text) {
    $("notice").textContent = "Type a task first.";
    return;
  }
  try {
    const tab = await targetTab();
    if (!tab) throw new Error("open a web page in a tab first");
    await ask({ type: "start_task", task: text, tab_id: tab.id, confirm: $("ask").checked });
  } catch (e) {
    $("notice").textContent = `Could not start: ${e.message}`;
  }
});

$("stop").addEventListener("click", () => {
  if (current) ask({ type: "stop_task", task_id: current.task_id }).catch((e) => ($("notice").textContent = e.message));
});

for (const [id, approved] of [["confirm-yes", true], ["confirm-no", false]]) {
  $(id).addEventListener("click", () => {
    if (current && current.confirm) {
      ask({ type: "confirm_answer", id: current.confirm.id, approved }).catch((e) => ($("notice").textContent = e.message));
    }
  });
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "session") return;
  if (changes.connection) renderConnection(changes.connection.newValue);
  if (changes.task) renderTask(changes.task.newValue || null);
});

chrome.storage.session.get(["connection", "task"]).then(({ connection, task }) => {
  renderTask(task || null);
  renderConnection(connection);
});
