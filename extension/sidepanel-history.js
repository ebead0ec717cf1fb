// The side panel's task history: the profile's last tasks (chrome.storage.local, written by bg/tasks.js),
// newest first, each with its answer, how it ended, duration, LLM calls and tokens; its steps open on a click.
// "Follow up" on one makes the next task continue from its result (the panel's form listens for the
// "wc-follow-up" event). The task shown live above (the session's current task) is not repeated here.
import { renderSteps, answerOf, costLine } from "./sidepanel-steps.js";

const $ = (id) => document.getElementById(id);
let shownCurrent = null; // the id of the task the current-task card shows

async function load() {
  const { history: ids = [] } = await chrome.storage.local.get("history");
  const keys = ids.map((id) => `task:${id}`);
  const saved = keys.length ? await chrome.storage.local.get(keys) : {};
  return ids.map((id) => saved[`task:${id}`]).filter(Boolean);
}

function entry(task, open) {
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
  if (task.previous) {
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
  return li;
}

export async function renderHistory() {
  const tasks = (await load()).filter((t) => t.task_id !== shownCurrent);
  const list = $("history-list");
  // Keep what the user opened open across re-renders.
  const opened = new Set([...list.querySelectorAll("li.past")].filter((li) => li.querySelector("details").open)
    .map((li) => li.dataset.taskId));
  list.textContent = "";
  tasks.forEach((task, i) => {
    // With no current task (the browser restarted), the newest one shows its steps at once.
    const open = opened.has(task.task_id) || (i === 0 && !shownCurrent && !opened.size);
    list.appendChild(entry(task, open));
  });
  $("history").hidden = tasks.length === 0;
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
