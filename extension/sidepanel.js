// The task side panel: type a task, watch each step live (observation, reason, action), see the answer;
// Pause/Resume between steps, Stop; answer a confirmation inline; follow up on a result (the next task goes on
// in the same tab, told the previous task and its result). Enter runs, Esc stops.
// It renders chrome.storage.session ("task", written by the worker from the companion's task_update messages;
// "connection", the link status) and re-renders on every change, so closing and reopening the panel mid-task
// loses nothing. Past tasks: sidepanel-history.js; the site card and model line: sidepanel-site.js.
// Requests go to the worker as runtime messages (bg/tasks.js). A stopped or failed task offers Resume (it goes on
// from its checkpoint); a follow-up shows the conversation so far above it; the tab picker chooses the task's tab.
import { renderSteps, answerOf, costLine, statusLine, resumable } from "./sidepanel-steps.js";
import { renderHistory, setCurrent, earlierTurns } from "./sidepanel-history.js";
import { connectionWords, newestOnly } from "./connection-words.js";

const $ = (id) => document.getElementById(id);
let current = null;
let connected = false;
let followUp = null; // the finished task the next one continues from (null: a new task)
let dismissed = null; // the task id whose follow-up the user declined ("New task")
let chosen = false; // the user picked the task to follow up in the history
let ticker = null;

function ask(request) {
  return chrome.runtime.sendMessage(request).then((reply) => {
    if (reply && reply.error) throw new Error(reply.error);
    return reply;
  });
}

const isWeb = (t) => /^(https?|file):/.test(t.url || "");

// The tab picker: the window's web pages by title ("The active tab", the default, follows the user around).
// Refilled as tabs open, close, load or change title; a choice whose tab closed falls back to the default.
async function fillTabPicker() {
  const select = $("tab-pick");
  const tabs = (await chrome.tabs.query({ currentWindow: true })).filter(isWeb);
  const chosenId = select.value;
  while (select.options.length > 1) select.remove(1);
  for (const tab of tabs) select.add(new Option(tab.title || tab.url, String(tab.id)));
  select.value = tabs.some((t) => String(t.id) === chosenId) ? chosenId : "";
}

for (const event of ["onCreated", "onRemoved", "onUpdated"]) chrome.tabs[event].addListener(() => fillTabPicker());

// The tab the user picked, if it is still a web page (null: the default).
async function pickedTab() {
  const id = Number($("tab-pick").value);
  if (!id) return null;
  try {
    const tab = await chrome.tabs.get(id);
    return isWeb(tab) ? tab : null;
  } catch (_) {
    return null; // closed since
  }
}

// The tab the task runs in: the active web page of the current window. When this panel is itself open
// as a tab (tests, or the user opened sidepanel.html directly), the most recently used web page instead.
export async function targetTab() {
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (active && isWeb(active)) return active;
  const tabs = (await chrome.tabs.query({})).filter(isWeb);
  tabs.sort((a, b) => (b.lastAccessed || 0) - (a.lastAccessed || 0));
  return tabs[0] || null;
}

const renderConnection = newestOnly((connection) => {
  const { status, word, detail } = connectionWords(connection);
  connected = status === "connected";
  $("conn").textContent = word;
  $("conn").className = `conn ${status}`;
  $("pairing").hidden = connected;
  $("conn-detail").textContent = detail;
  renderButtons();
});

function running() {
  return Boolean(current && current.running);
}

function renderButtons() {
  const busy = running();
  $("start").disabled = busy || !connected;
  $("stop").disabled = !busy;
  $("pause").disabled = !busy || !connected;
  const paused = busy && (current.paused || current.pausing);
  $("pause").textContent = busy && current.paused ? "Resume" : busy && current.pausing ? "Pausing…" : "Pause";
  $("pause").setAttribute("aria-pressed", String(Boolean(paused)));
  $("resume-task").hidden = !resumable(current);
  $("resume-task").disabled = !connected;
}

// The follow-up offered: the task in view that ended done, unless the user chose a new task instead.
function renderFollowUp() {
  const base = followUp;
  $("followup").hidden = !base;
  $("task-label").textContent = base ? "Follow-up task (same tab, knows the result above)" : "Task for the current tab";
  if (!base) return;
  $("followup-task").textContent = base.task || "(task)";
  const answer = answerOf(base);
  $("followup-answer").textContent = answer ? `Result: ${answer}` : "No result.";
}

// Only a task that ended done is offered by default: a stopped or failed one has no result to go on from (the
// user may still pick it in the history).
function offerFollowUp(task) {
  if (task && task.running) {
    followUp = null;
    chosen = false;
  } else if (!chosen) {
    followUp = task && task.task && task.status === "done" && task.task_id !== dismissed ? task : null;
  }
  renderFollowUp();
}

function renderMeta() {
  $("current-meta").textContent = costLine(current);
}

function renderTask(task) {
  current = task;
  setCurrent(task ? task.task_id : null);
  $("notice").textContent = (task && task.notice) || "";
  const confirm = task && task.confirm;
  $("confirm").hidden = !confirm;
  $("confirm-text").textContent = confirm ? confirm.description : "";
  $("current").hidden = !task;
  $("answer-box").hidden = true;
  $("task-status").textContent = "";
  renderButtons();
  offerFollowUp(task);
  clearInterval(ticker);
  ticker = null;
  if (!task) {
    renderSteps($("steps"), [], $("preface"));
    return;
  }
  $("current-task").textContent = task.task || "";
  $("current-previous").hidden = true;
  renderConversation(task);
  $("pause-state").hidden = !(task.running && (task.paused || task.pausing));
  $("pause-state").textContent = task.paused
    ? `${pausedText(task)} Resume to go on.`
    : "Pausing: the step under way finishes first.";
  renderSteps($("steps"), task.events, $("preface"));
  const answer = answerOf(task);
  if (answer && task.events.some((ev) => ev.kind === "answer")) {
    $("answer").textContent = answer;
    $("answer-box").hidden = false;
  }
  $("task-status").textContent = statusLine(task);
  renderMeta();
  if (task.running) ticker = setInterval(renderMeta, 1000);
}

// A follow-up shows the conversation so far above it: each earlier task and its result.
async function renderConversation(task) {
  const turns = task.previous ? await earlierTurns(task) : [];
  if (current !== task) return; // a newer render took over meanwhile
  const list = $("conversation");
  list.textContent = "";
  for (const turn of turns) {
    const li = list.appendChild(document.createElement("li"));
    li.className = "turn";
    li.dataset.taskId = turn.task_id;
    const text = li.appendChild(document.createElement("div"));
    text.className = "turn-task";
    text.textContent = turn.task || "(task)";
    const answer = li.appendChild(document.createElement("div"));
    answer.className = "turn-answer";
    answer.textContent = `Result: ${answerOf(turn) || "none"}`;
  }
  list.hidden = turns.length === 0;
  // The earlier turns say what this follows up; only when the history no longer has them does one line say it.
  const alone = Boolean(task.previous) && turns.length === 0;
  $("current-previous").hidden = !alone;
  $("current-previous").textContent = alone
    ? `Follow-up to: ${task.previous.task} — result: ${task.previous.answer || "none"}`
    : "";
}

function pausedText(task) {
  const ev = [...task.events].reverse().find((e) => e.kind === "paused");
  return ev ? `${ev.text}.` : "Paused.";
}

async function followUpTab(base) {
  if (base && Number.isInteger(base.tab_id)) {
    try {
      const tab = await chrome.tabs.get(base.tab_id);
      if (/^(https?|file):/.test(tab.url || "")) return tab;
    } catch (_) {
      // the tab was closed: the current tab instead
    }
  }
  return targetTab();
}

async function run() {
  const text = $("task").value.trim();
  $("notice").textContent = "";
  if (running()) return;
  if (!text) {
    $("notice").textContent = "Type a task first.";
    return;
  }
  try {
    const base = followUp;
    const tab = (await pickedTab()) || (base ? await followUpTab(base) : await targetTab());
    if (!tab) throw new Error("open a web page in a tab first");
    const request = { type: "start_task", task: text, tab_id: tab.id, confirm: $("ask").checked };
    if (base) request.previous = { task: base.task, answer: answerOf(base), task_id: base.task_id };
    await ask(request);
    $("task").value = "";
  } catch (e) {
    $("notice").textContent = `Could not start: ${e.message}`;
  }
}

// Resume a stopped or failed task: it goes on from its last step in its own tab (or the picked one, if that
// tab is gone), as the same task.
async function resume(task) {
  $("notice").textContent = "";
  if (running() || !resumable(task)) return;
  try {
    const tab = (await pickedTab()) || (await followUpTab(task));
    if (!tab) throw new Error("open a web page in a tab first");
    await ask({ type: "resume_task", task_id: task.task_id, tab_id: tab.id, confirm: $("ask").checked });
  } catch (e) {
    $("notice").textContent = `Could not resume: ${e.message}`;
  }
}

$("resume-task").addEventListener("click", () => resume(current));
document.addEventListener("wc-resume", (event) => resume(event.detail));

function stop() {
  if (running()) ask({ type: "stop_task", task_id: current.task_id }).catch((e) => ($("notice").textContent = e.message));
}

$("task-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run();
});

// Enter runs (Shift+Enter: a new line; never while an input method composes).
$("task").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    run();
  }
});

// Esc stops the running task, wherever the focus is in the panel.
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && running()) {
    event.preventDefault();
    stop();
  }
});

$("stop").addEventListener("click", stop);

$("pause").addEventListener("click", () => {
  if (!running()) return;
  const paused = !(current.paused || current.pausing);
  ask({ type: "pause_task", task_id: current.task_id, paused }).catch((e) => ($("notice").textContent = e.message));
});

$("followup-clear").addEventListener("click", () => {
  dismissed = followUp ? followUp.task_id : null;
  followUp = null;
  chosen = false;
  renderFollowUp();
  $("task").focus();
});

document.addEventListener("wc-follow-up", (event) => {
  followUp = event.detail;
  dismissed = null;
  chosen = true;
  renderFollowUp();
  $("task").focus();
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
  renderHistory();
  fillTabPicker();
});
