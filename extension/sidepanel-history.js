// The side panel's task history: the profile's last tasks (chrome.storage.local, written by bg/tasks.js),
// newest first, each with its answer, how it ended, duration, LLM calls and tokens; its steps open on a click.
// "Follow up" on one makes the next task continue from its result (the panel's form listens for the
// "wc-follow-up" event); "Resume" on a stopped or failed one goes on from its checkpoint ("wc-resume"). A task and
// its follow-ups show as one conversation. The task shown live above (the session's current task) is not
// repeated here.
import { renderSteps, answerOf, costLine, resumable } from "./sidepanel-steps.js";

const $ = (id) => document.getElementById(id);
let shownCurrent = null; // the id of the task the current-task card shows

async function load() {
  const { history: ids = [] } = await chrome.storage.local.get("history");
  const keys = ids.map((id) => `task:${id}`);
  const saved = keys.length ? await chrome.storage.local.get(keys) : {};
  return ids.map((id) => saved[`task:${id}`]).filter(Boolean);
}

// showPrevious: name the task this one followed up (not inside a conversation, where that task is the turn above).
function entry(task, open, showPrevious = true) {
  const li = document.createElement("li");
  li.className = "past";
  li.dataset.taskId = task.task_id;
  const details = li.appendChild(document.createElement("details"));
  details.open = open;
  const summary = details.appendChild(document.createElement("summary"));
  const title = summary.appendChild(document.createElement("span"));
  title.className = "h-task";
  title.textContent = task.task || "(task)";
  const meta = summary.appendChild(document.createElement("span"));
  meta.className = "h-meta";
  meta.textContent = costLine(task);
  const answer = answerOf(task);
  if (answer) {
    const p = details.appendChild(document.createElement("p"));
    p.className = "h-answer";
    p.textContent = `Answer: ${answer}`;
  }
  if (task.previous && showPrevious) {
    const p = details.appendChild(document.createElement("p"));
    p.className = "h-previous";
    p.textContent = `Follow-up to: ${task.previous.task}`;
  }
  const preface = details.appendChild(document.createElement("div"));
  preface.className = "preface";
  const steps = details.appendChild(document.createElement("ol"));
  steps.className = "steps";
  renderSteps(steps, task.events, preface);
  if (!task.running) {
    const button = details.appendChild(document.createElement("button"));
    button.type = "button";
    button.className = "h-follow";
    button.textContent = "Follow up";
    button.addEventListener("click", () => document.dispatchEvent(new CustomEvent("wc-follow-up", { detail: task })));
  }
  if (resumable(task)) {
    const button = details.appendChild(document.createElement("button"));
    button.type = "button";
    button.className = "h-resume";
    button.textContent = "Resume";
    button.addEventListener("click", () => document.dispatchEvent(new CustomEvent("wc-resume", { detail: task })));
  }
  return li;
}

// The turns before `task` in its conversation, oldest first (the tasks it followed up, as far as the history
// keeps them).
export async function earlierTurns(task) {
  const turns = [];
  const seen = new Set([task.task_id]);
  let id = task.previous && task.previous.task_id;
  while (id && !seen.has(id)) {
    seen.add(id);
    const { [`task:${id}`]: saved } = await chrome.storage.local.get(`task:${id}`);
    if (!saved) break;
    turns.unshift(saved);
    id = saved.previous && saved.previous.task_id;
  }
  return turns;
}

// The tasks as conversations, newest first: a task and its follow-ups (each names the task it followed up,
// `previous.task_id`), oldest turn first. A follow-up whose task left the history starts its own.
export function conversations(tasks) {
  const byId = new Map(tasks.map((t) => [t.task_id, t]));
  const rootOf = (task) => {
    const seen = new Set();
    while (task.previous && byId.has(task.previous.task_id) && !seen.has(task.task_id)) {
      seen.add(task.task_id);
      task = byId.get(task.previous.task_id);
    }
    return task;
  };
  const groups = new Map(); // root id -> turns; a Map keeps the order of the newest turn of each
  for (const task of tasks) {
    const root = rootOf(task).task_id;
    if (!groups.has(root)) groups.set(root, []);
    groups.get(root).unshift(task);
  }
  return [...groups.values()];
}

function conversation(turns, opened) {
  const li = document.createElement("li");
  li.className = "conversation";
  li.dataset.taskId = turns[0].task_id;
  const ol = li.appendChild(document.createElement("ol"));
  ol.className = "turns";
  turns.forEach((task, i) => ol.appendChild(entry(task, opened.has(task.task_id), i === 0)));
  return li;
}

// Every task but the one the current-task card shows (its earlier turns stay here too: the card names them, the
// history keeps their steps).
export async function renderHistory() {
  const tasks = (await load()).filter((t) => t.task_id !== shownCurrent);
  const groups = conversations(tasks);
  const list = $("history-list");
  // Keep what the user opened open across re-renders.
  const opened = new Set([...list.querySelectorAll("li.past")].filter((li) => li.querySelector("details").open)
    .map((li) => li.dataset.taskId));
  list.textContent = "";
  groups.forEach((turns, i) => {
    // With no current task (the browser restarted), the newest one shows its steps at once.
    const newest = turns[turns.length - 1];
    if (i === 0 && !shownCurrent && !opened.size) opened.add(newest.task_id);
    list.appendChild(turns.length > 1 ? conversation(turns, opened) : entry(newest, opened.has(newest.task_id)));
  });
  $("history").hidden = groups.length === 0;
  return tasks;
}

export function setCurrent(taskId) {
  if (shownCurrent === taskId) return;
  shownCurrent = taskId;
  renderHistory();
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "local") return;
  // The running task rewrites its own key on every event: the list changes only when another task does.
  if (Object.keys(changes).some((k) => k === "history" || (k.startsWith("task:") && k !== `task:${shownCurrent}`))) {
    renderHistory();
  }
});
