// Task relay between the side panel and the companion. The panel asks the worker (runtime messages) to start
// or stop a task and to answer a confirmation; the companion's task_update and confirm_request messages are
// written to chrome.storage.session ("task"), which the panel renders and watches. Keeping the log in storage
// means a panel opened (or reopened) mid-task shows everything so far, and a worker restart loses nothing.
import { send, isOpen } from "./connection.js";
import { newId } from "./ids.js";

const KEY = "task";
const MAX_EVENTS = 500;

// Storage updates are read-modify-write: run them one after another so no event overwrites another.
let chain = Promise.resolve();
function update(change) {
  chain = chain.then(async () => {
    const { [KEY]: current } = await chrome.storage.session.get(KEY);
    const next = change(current || null);
    if (next) await chrome.storage.session.set({ [KEY]: next });
  }).catch((e) => console.error("task log update failed", e));
  return chain;
}

export const TASK_HANDLERS = {
  async task_update(msg) {
    await update((task) => {
      if (!task || task.task_id !== msg.task_id) {
        // A refusal for a task that never started (another one runs) still has to reach the panel.
        if (msg.event.kind !== "finished") return null;
        return task ? { ...task, notice: msg.event.text } : null;
      }
      const events = task.events.concat([msg.event]).slice(-MAX_EVENTS);
      const done = msg.event.kind === "finished";
      return { ...task, events, running: !done, confirm: done ? null : task.confirm };
    });
  },
  async confirm_request(msg) {
    await update((task) => {
      if (!task || task.task_id !== msg.task_id) return null;
      return { ...task, confirm: { id: msg.id, description: msg.description } };
    });
  },
};

async function startTask(request) {
  if (!isOpen()) throw new Error("not connected to the companion");
  const taskId = newId("task");
  // tab_id: passive learning stays out of the task's tab (every tab when it names none: bg/passive.js).
  const tabId = Number.isInteger(request.tab_id) ? request.tab_id : null;
  await update(() => ({ task_id: taskId, task: request.task, tab_id: tabId, events: [], running: true, confirm: null, notice: "" }));
  const message = { type: "start_task", id: taskId, task: request.task, confirm: request.confirm !== false };
  if (Number.isInteger(request.tab_id)) message.tab_id = request.tab_id;
  if (request.start_url) message.start_url = request.start_url;
  if (Number.isInteger(request.max_steps)) message.max_steps = request.max_steps;
  send(message);
  return { task_id: taskId };
}

async function stopTask(request) {
  send({ type: "stop_task", id: newId("stop"), task_id: request.task_id });
  return { ok: true };
}

async function answerConfirm(request) {
  send({ type: "confirm_answer", id: request.id, approved: request.approved === true });
  await update((task) => (task && task.confirm && task.confirm.id === request.id ? { ...task, confirm: null } : null));
  return { ok: true };
}

// Runtime requests from the side panel; returns a promise, or null when the request is not ours.
export function handlePanelRequest(request) {
  const work = { start_task: startTask, stop_task: stopTask, confirm_answer: answerConfirm }[request && request.type];
  return work ? work(request) : null;
}
