// Getting the content script into a tab's frames and calling it.
// Injection happens on demand, so tabs opened before the extension was installed work too,
// and the content script's own guard makes a second injection a no-op.

import { wrapPageClipboard, WRITE_EVENT } from "./clipboard.js";
import { describeLoadError } from "./navigation.js";

// frames.js right after walk.js: walk.js creates the shared namespace (and renews it after an update).
export const CONTENT_FILES = ["content/walk.js", "content/frames.js", "content/secrets.js", "content/snapshot.js", "content/datetime.js", "content/actions.js", "content/gestures.js", "content/clipboard.js", "content/outline.js"];

export class TabError extends Error {}

// A frame whose page script hogs its thread would otherwise hold the whole snapshot hostage.
export const FRAME_TIMEOUT_MS = 15_000;

export class FrameTimeout extends Error {}

// The content script itself failed (a bug, or a page that breaks an assumption): "internal".
export class PageScriptError extends Error {}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new FrameTimeout(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// injectImmediately: without it Chrome waits for each frame's document_idle, and a frame that never
// finishes loading (an ad iframe written with document.write and never closed) blocks forever.
function execute(details, what, ms = FRAME_TIMEOUT_MS) {
  return withTimeout(chrome.scripting.executeScript({ injectImmediately: true, ...details }), Math.max(ms, 1), what);
}

// Injects into every frame the extension may access; frames it may not (chrome://, other
// extensions, sandboxed about:blank) are skipped by Chrome rather than failing the call.
// One busy frame holds the whole call until `ms`; then it gives up quietly: a frame's content script is
// injected again on demand (callers retry injectFrame on a null result), and a frame that never takes it is
// the caller's to report.
export async function injectAllFrames(tabId, ms = FRAME_TIMEOUT_MS) {
  // Copies the page makes are seen from its own world (bg/clipboard.js explains why); side by side with
  // the content scripts, so a snapshot does not wait for one more round trip.
  const wrapping = execute(
    { target: { tabId, allFrames: true }, world: "MAIN", func: wrapPageClipboard, args: [WRITE_EVENT] }, `tab ${tabId}`, ms,
  ).catch((e) => console.warn("clipboard writes not wrapped in tab", tabId, e && e.message));
  try {
    await execute({ target: { tabId, allFrames: true }, files: CONTENT_FILES }, `tab ${tabId}`, ms);
  } catch (e) {
    if (!(e instanceof FrameTimeout)) throw new TabError(cannotAccess(tabId, e));
    console.warn("not every frame of tab", tabId, "took the content scripts in time:", e.message);
  } finally {
    await wrapping;
  }
}

// Chrome's "Frame with ID 0 is showing error page" means the page never loaded: say that, with its URL and why.
function cannotAccess(tabId, e) {
  return /showing error page/i.test(e.message) ? describeLoadError(tabId) : `cannot access tab ${tabId}: ${e.message}`;
}

export async function injectFrame(tabId, frameId, ms = FRAME_TIMEOUT_MS) {
  await execute({ target: { tabId, frameIds: [frameId] }, files: CONTENT_FILES }, `frame ${frameId}`, ms);
}

// Runs in the page (serialized by executeScript, so it may use only its arguments).
// Null: the content script is not in this document. An exception comes back as {__error},
// because executeScript would otherwise turn it into a bare null.
async function callContent(path, args) {
  const wc = globalThis.__webchallenger;
  const [part, fn] = path.split(".");
  if (!wc || !wc[part]) return null;
  try {
    return await wc[part][fn](...args);
  } catch (e) {
    return { __error: String(e && e.stack ? e.stack : e).slice(0, 2000) };
  }
}

// Calls `path` ("snapshot.snapshotFrame", "actions.act", ...) of the content script in one frame.
export async function callInFrame(tabId, frameId, path, args = [], ms = FRAME_TIMEOUT_MS) {
  const [res] = await execute(
    { target: { tabId, frameIds: [frameId] }, world: "ISOLATED", func: callContent, args: [path, args] },
    `frame ${frameId}`, ms,
  );
  if (!res) throw new TabError(`frame ${frameId} of tab ${tabId} gave no result`);
  const out = res.result === undefined ? null : res.result;
  if (out && typeof out === "object" && typeof out.__error === "string") {
    throw new PageScriptError(`frame ${frameId}: ${out.__error}`);
  }
  return out;
}

// Runs in a child frame's ISOLATED world: tells the parent's content script which frame id this window
// has, with the one-time key the parent was told to expect (content/frames.js); the page never sees it.
function announceFrame(frameId, key) {
  if (window.parent !== window) window.parent.postMessage({ __webchallengerFrame: frameId, key }, "*");
}

function oneTimeKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Every child frame announces itself to its parent (see content/frames.js). Each parent first learns the
// key each of its children will announce with, so an announcement a page forges is ignored. Returns the
// frames that did announce, as a map parent frame id -> child frame ids: the parent waits for exactly
// those (error pages and other frames we may not script never announce, and must not make it wait), and
// `late`: the frames (with their parent) that did not answer before `deadline` (a Date.now() time).
export async function announceFrames(tabId, deadline = Date.now() + FRAME_TIMEOUT_MS) {
  const left = () => deadline - Date.now();
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) || []).filter((f) => f.frameId !== 0);
  const keys = new Map(frames.map((f) => [f.frameId, oneTimeKey()]));
  const byParent = new Map();
  for (const f of frames) {
    if (!byParent.has(f.parentFrameId)) byParent.set(f.parentFrameId, []);
    byParent.get(f.parentFrameId).push({ frame: f.frameId, key: keys.get(f.frameId) });
  }
  const parents = [...byParent.keys()];
  const told = await Promise.allSettled(parents.map((p) => callInFrame(tabId, p, "frames.expect", [byParent.get(p)], left())));
  const ready = new Set(parents.filter((p, i) => told[i].status === "fulfilled" && told[i].value === true));
  const busy = new Set(parents.filter((p, i) => told[i].status === "rejected" && told[i].reason instanceof FrameTimeout));
  const announcing = frames.filter((f) => ready.has(f.parentFrameId));
  const settled = await Promise.allSettled(announcing.map((f) => execute(
    { target: { tabId, frameIds: [f.frameId] }, func: announceFrame, args: [f.frameId, keys.get(f.frameId)] }, `frame ${f.frameId}`,
    left(),
  )));
  const children = new Map();
  // A busy parent cannot hear its children: they are as late as it is.
  const late = frames.filter((f) => busy.has(f.parentFrameId)).map((f) => ({ frame: f.frameId, parent: f.parentFrameId }));
  announcing.forEach((f, i) => {
    if (settled[i].status !== "fulfilled") {
      if (settled[i].reason instanceof FrameTimeout) late.push({ frame: f.frameId, parent: f.parentFrameId });
      return;
    }
    if (!children.has(f.parentFrameId)) children.set(f.parentFrameId, []);
    children.get(f.parentFrameId).push(f.frameId);
  });
  return { children, late };
}
