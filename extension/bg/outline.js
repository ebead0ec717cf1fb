// What the agent sees, drawn on the page (content/outline.js does the drawing):
// - draw_sections from the companion: the PageMem sections' outlines in a tab's top frame (their boxes are in
//   top-level viewport coordinates, iframe offsets applied, so the top frame draws them all);
// - the side panel's "Show sections" (sections_show / sections_hide): asks the companion to divide the tab and
//   draw its sections (sections_request through bg/requests.js, answered by sections_shown once drawn). While
//   they are shown, chrome.storage.session "sections" says on which tab, so a reopened panel shows its switch on;
// - an action's target outlined for outline_ms before the action (bg/actions.js).
import { isOpen } from "./connection.js";
import { newId } from "./ids.js";
import { callInFrame, injectFrame } from "./inject.js";
import { askCompanion } from "./requests.js";

const KEY = "sections";
// The companion snapshots and divides the page first: a big page on a busy machine takes a while.
const SHOW_TIMEOUT_MS = 90_000;

// Calls content/outline.js in one frame, injecting the content scripts when the document has none yet.
async function callOutline(tabId, frameId, fn, args) {
  let res = await callInFrame(tabId, frameId, `outline.${fn}`, args);
  if (res === null) {
    await injectFrame(tabId, frameId);
    res = await callInFrame(tabId, frameId, `outline.${fn}`, args);
  }
  return res;
}

// draw_sections: returns how many outlines are on the page now.
export async function drawSections(tabId, msg) {
  // Roots in the top frame only: the drawing frame can look those up (a fixed root inside a frame is left to scroll).
  const sections = msg.sections.map((s) => ({
    id: s.id, kind: s.kind, box: s.box, label: s.label || "", root: s.root && s.root.frame === 0 ? s.root.id : null,
  }));
  const drawn = await callOutline(tabId, 0, "show", [sections, { x: msg.scroll_x || 0, y: msg.scroll_y || 0 }]);
  return Number.isInteger(drawn) ? drawn : 0;
}

// Outlines the action's target for `ms` before the action. Never fails the action: an element that is gone is
// reported by the action itself.
export async function outlineTarget(tabId, frameId, elementId, ms, kind) {
  try {
    await callInFrame(tabId, frameId, "outline.flash", [elementId, ms, kind]);
  } catch (e) {
    console.debug("target not outlined", e && e.message);
  }
}

function requestSections(tabId) {
  return askCompanion({ type: "sections_request", id: newId("sections"), tab_id: tabId }, SHOW_TIMEOUT_MS);
}

async function showSections(tabId) {
  if (!Number.isInteger(tabId)) throw new Error("no tab to show the sections of");
  if (!isOpen()) throw new Error("not connected to the companion");
  const shown = await requestSections(tabId);
  const state = { tab_id: tabId, url: shown.url, count: shown.count };
  await chrome.storage.session.set({ [KEY]: state });
  return state;
}

async function hideSections(tabId) {
  await chrome.storage.session.remove(KEY);
  if (!Number.isInteger(tabId)) return { ok: true };
  try {
    await callInFrame(tabId, 0, "outline.clear", []);
  } catch (_) {
    // the tab closed or cannot be scripted: nothing is drawn there
  }
  return { ok: true };
}

// The side panel's requests (background.js passes only those of the extension's own pages); a promise, or null
// when the request is not one of these.
export function handleSectionsRequest(request) {
  const type = request && request.type;
  if (type === "sections_show") return showSections(request.tab_id);
  if (type === "sections_hide") return hideSections(request.tab_id);
  return null;
}
