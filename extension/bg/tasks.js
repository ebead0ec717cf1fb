// Task relay between the side panel and the companion, and the task history.
//
// The panel asks the worker (runtime messages) to start, stop, pause or resume a task (resume_task: go on with a
// stopped or failed one from its checkpoint; pause_task: hold or release a running one) and to answer a
// confirmation; the companion's task_update and confirm_request messages are written to storage, which the
// panel renders and watches:
//   chrome.storage.session "task"        the current task, live (with its open confirmation): a panel opened
//                                        or reopened mid-task shows everything so far; a worker restart
//                                        loses nothing; passive learning reads its tab (bg/passive.js);
//   chrome.storage.local "history"       the ids of the last tasks, newest first, and
//   chrome.storage.local "task:<id>"     each task's record: text, steps, answer, status, duration, LLM calls
//                                        and tokens, the task it followed up.
// History lives in the browser profile's own storage, not the companion's files: it is per profile by
// construction (one companion serves every profile of the user, and cannot tell them apart), it survives
// browser and companion restarts alike, and the panel can show it while no companion runs. Each task is its
// own key, so an event rewrites one task, not the whole history.
import { send, isOpen } from "./connection.js";
import { newId } from "./ids.js";

const KEY = "task";
const HISTORY = "history";
const MAX_EVENTS = 500;
const MAX_TASKS = 50;
const MAX_BYTES = 6 * 1024 * 1024; // chrome.storage.local holds 10 MB: the oldest tasks go first
const KEPT = ["task_id", "task", "tab_id", "events", "running", "status", "answer", "usage", "started_at",
  "finished_at", "previous", "paused", "interrupted"];

export const taskKey = (id) => `task:${id}`;

function record(task) {
  const out = {};
  for (const name of KEPT) if (task[name] !== undefined) out[name] = task[name];
  return out;
}

async function remember(task) {
  await chrome.storage.local.set({ [taskKey(task.task_id)]: record(task) });
}

async function addToHistory(taskId) {
  const { [HISTORY]: ids = [] } = await chrome.storage.local.get(HISTORY);
  const next = [taskId, ...ids.filter((id) => id !== taskId)];
  const dropped = next.splice(MAX_TASKS);
  await chrome.storage.local.set({ [HISTORY]: next });
  if (dropped.length) await chrome.storage.local.remove(dropped.map(taskKey));
}

// After a task ends: drop the oldest tasks while the history is over its byte budget (the newest stays).
async function trimHistory() {
  if (!chrome.storage.local.getBytesInUse) return;
  let { [HISTORY]: ids = [] } = await chrome.storage.local.get(HISTORY);
  while (ids.length > 1 && (await chrome.storage.local.getBytesInUse(null)) > MAX_BYTES) {
    const oldest = ids[ids.length - 1];
    ids = ids.slice(0, -1);
    await chrome.storage.local.set({ [HISTORY]: ids });
    await chrome.storage.local.remove(taskKey(oldest));
  }
}

// Storage updates are read-modify-write: run them one after another so no event overwrites another.
let chain = Promise.resolve();
function update(change) {
  chain = chain.then(async () => {
    const { [KEY]: current } = await chrome.storage.session.get(KEY);
    const next = await change(current || null);
    if (next) {
      await chrome.storage.session.set({ [KEY]: next });
      await remember(next);
    }
  }).catch((e) => console.error("task log update failed", e));
  return chain;
}

// An event for a task the session does not hold (the browser restarted while the companion ran it): its
// record in the history, which goes on from there.
async function fromHistory(taskId) {
  const { [taskKey(taskId)]: saved } = await chrome.storage.local.get(taskKey(taskId));
  return saved ? { ...saved, confirm: null, notice: "", interrupted: false } : null;
}

function withEvent(task, event) {
  const events = task.events.concat([event]).slice(-MAX_EVENTS);
  const next = { ...task, events };
  switch (event.kind) {
    case "paused":
      return { ...next, paused: true, pausing: false };
    case "resumed":
      return { ...next, paused: false, pausing: false };
    case "answer":
      return { ...next, answer: event.answer || event.text || "" };
    case "finished":
      return { ...next, running: false, paused: false, pausing: false, confirm: null, status: event.status,
        usage: event.usage || null, finished_at: Date.now(),
        // A task stopped by a loop or its budget still says what it found (a note); the answer stays empty.
        answer: next.answer || (event.status === "done" ? event.text || "" : "") };
    default:
      return next;
  }
}

export const TASK_HANDLERS = {
  async task_update(msg) {
    let finished = false;
    await update(async (task) => {
      if (!task || task.task_id !== msg.task_id) {
        const saved = await fromHistory(msg.task_id);
        if (saved) {
          finished = msg.event.kind === "finished";
          return withEvent({ ...saved, running: true }, msg.event);
        }
        // A refusal for a task that never started (another one runs) still has to reach the panel.
        if (msg.event.kind !== "finished") return null;
        return task ? { ...task, notice: msg.event.text } : null;
      }
      finished = msg.event.kind === "finished";
      return withEvent(task, msg.event);
    });
    if (finished) await trimHistory().catch((e) => console.warn("history trim failed", e));
  },
  async confirm_request(msg) {
    await update((task) => {
      if (!task || task.task_id !== msg.task_id) return null;
      return { ...task, confirm: { id: msg.id, description: msg.description } };
    });
  },
};

function previousOf(request) {
  const p = request.previous;
  if (!p || typeof p.task !== "string" || !p.task.trim()) return null;
  const previous = { task: p.task.slice(0, 4000), answer: typeof p.answer === "string" ? p.answer.slice(0, 4000) : "" };
  // Which task it followed up: the panel shows them as one conversation (the companion is told the text only).
  if (typeof p.task_id === "string") previous.task_id = p.task_id;
  return previous;
}

const toCompanion = ({ task, answer }) => ({ task, answer });

async function startTask(request) {
  if (!isOpen()) throw new Error("not connected to the companion");
  const taskId = newId("task");
  // tab_id: passive learning stays out of the task's tab (every tab when it names none: bg/passive.js).
  const tabId = Number.isInteger(request.tab_id) ? request.tab_id : null;
  const previous = previousOf(request);
  await update(() => ({ task_id: taskId, task: request.task, tab_id: tabId, events: [], running: true, confirm: null,
    notice: "", started_at: Date.now(), previous, paused: false, pausing: false }));
  await addToHistory(taskId);
  const message = { type: "start_task", id: taskId, task: request.task, confirm: request.confirm !== false };
  if (Number.isInteger(request.tab_id)) message.tab_id = request.tab_id;
  if (request.start_url) message.start_url = request.start_url;
  if (Number.isInteger(request.max_steps)) message.max_steps = request.max_steps;
  if (previous) message.previous = toCompanion(previous);
  send(message);
  return { task_id: taskId };
}

// Resume: the stopped or failed task goes on from its checkpoint (the companion's, named by the task id), in the
// tab the panel gives. It stays one task: the same record, its earlier steps kept, back at the top of the history.
async function resumeTask(request) {
  if (!isOpen()) throw new Error("not connected to the companion");
  const saved = await fromHistory(request.task_id);
  if (!saved || saved.running) throw new Error("no stopped task to resume");
  const tabId = Number.isInteger(request.tab_id) ? request.tab_id : null;
  await update(() => ({ ...saved, tab_id: tabId, running: true, status: null, answer: "", usage: null,
    finished_at: null, paused: false, pausing: false }));
  await addToHistory(saved.task_id);
  const message = { type: "start_task", id: saved.task_id, task: saved.task, resume: true, confirm: request.confirm !== false };
  if (tabId !== null) message.tab_id = tabId;
  if (saved.previous) message.previous = toCompanion(saved.previous);
  send(message);
  return { task_id: saved.task_id };
}

async function stopTask(request) {
  send({ type: "stop_task", id: newId("stop"), task_id: request.task_id });
  return { ok: true };
}

// Pause takes effect before the next step (the companion answers with a `paused` event); until then the
// panel says it is pausing.
async function pauseTask(request) {
  const paused = request.paused !== false;
  if (!send({ type: "pause_task", id: newId("pause"), task_id: request.task_id, paused })) {
    throw new Error("not connected to the companion");
  }
  await update((task) => (task && task.task_id === request.task_id && task.running ? { ...task, pausing: paused } : null));
  return { ok: true };
}

async function answerConfirm(request) {
  send({ type: "confirm_answer", id: request.id, approved: request.approved === true });
  await update((task) => (task && task.confirm && task.confirm.id === request.id ? { ...task, confirm: null } : null));
  return { ok: true };
}

// The browser started: a task still marked running in the history lost its live log with the browser (the
// companion may still be running it; its next event brings it back).
export async function markInterrupted() {
  const { [HISTORY]: ids = [] } = await chrome.storage.local.get(HISTORY);
  const keys = ids.map(taskKey);
  const saved = keys.length ? await chrome.storage.local.get(keys) : {};
  const { [KEY]: live } = await chrome.storage.session.get(KEY);
  for (const task of Object.values(saved)) {
    if (task.running && !(live && live.task_id === task.task_id)) {
      await chrome.storage.local.set({ [taskKey(task.task_id)]: { ...task, running: false, interrupted: true } });
    }
  }
}

// Runtime requests from the side panel; returns a promise, or null when the request is not ours.
export function handlePanelRequest(request) {
  const work = { start_task: startTask, resume_task: resumeTask, stop_task: stopTask, pause_task: pauseTask, confirm_answer: answerConfirm }[request && request.type];
  return work ? work(request) : null;
}
