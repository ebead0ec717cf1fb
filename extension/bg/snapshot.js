// Snapshot of a whole tab: every frame's element list, top frame first, composed into one
// SnapshotResult message by string concatenation (the frames arrive as JSON strings and are
// never parsed here: re-serializing a 50k-element page would cost more than producing it).
import { injectAllFrames, injectFrame, callInFrame, announceFrames, TabError } from "./inject.js";

async function snapshotFrame(tabId, frameId, offset, expectFrames, options) {
  const args = [offset, expectFrames, options];
  let res = await callInFrame(tabId, frameId, "snapshot.snapshotFrame", args);
  if (res === null) {
    // A frame that appeared after the injection: inject and retry once.
    await injectFrame(tabId, frameId);
    res = await callInFrame(tabId, frameId, "snapshot.snapshotFrame", args);
  }
  if (!res) throw new TabError(`frame ${frameId}: content script unavailable`);
  return res;
}

function frameJson(frameId, parentFrame, res) {
  return (
    `{"frame":${frameId}` +
    (parentFrame === null ? "" : `,"parent_frame":${parentFrame}`) +
    `,"url":${JSON.stringify(res.url)},"elements":${res.elements}}`
  );
}

// Returns the Snapshot object as a JSON string, plus counts for logging.
// options.passive: nothing the user entered (content/snapshot.js), for passive learning.
export async function snapshotTab(tabId, options = {}) {
  await injectAllFrames(tabId);
  const children = await announceFrames(tabId);
  const expect = (frameId) => children.get(frameId) || [];
  const top = await snapshotFrame(tabId, 0, { x: 0, y: 0 }, expect(0), options);
  const results = new Map([[0, { res: top, parent: null }]]);

  // Each level of frames is snapshotted in parallel; children learn their offset from the
  // parent's iframe boxes, so nested frames accumulate offsets.
  let level = top.frames.map((f) => ({ ...f, parent: 0 }));
  while (level.length) {
    const todo = level.filter((f) => !results.has(f.frame));
    const settled = await Promise.allSettled(todo.map((f) => snapshotFrame(tabId, f.frame, { x: f.x, y: f.y }, expect(f.frame), options)));
    level = [];
    settled.forEach((s, i) => {
      const f = todo[i];
      // A frame we may not script (e.g. a sandboxed or chrome:// frame) is left out, not fatal.
      if (s.status !== "fulfilled") return;
      results.set(f.frame, { res: s.value, parent: f.parent });
      for (const c of s.value.frames) level.push({ ...c, parent: f.frame });
    });
  }

  // Document order: a frame is followed by its descendants, before its next sibling frame.
  const parts = [];
  let timing = 0;
  let count = 0;
  const emit = (frameId) => {
    const entry = results.get(frameId);
    if (!entry) return;
    parts.push(frameJson(frameId, entry.parent, entry.res));
    timing += entry.res.timing_ms;
    count += entry.res.count;
    for (const c of entry.res.frames) emit(c.frame);
  };
  emit(0);

  const json =
    `{"url":${JSON.stringify(top.url)},"title":${JSON.stringify(top.title)}` +
    `,"viewport":${JSON.stringify(top.viewport)},"scroll":${JSON.stringify(top.scroll)}` +
    `,"frames":[${parts.join(",")}],"timing_ms":${Math.round(timing * 10) / 10}}`;
  return { json, frames: parts.length, count, timing_ms: timing };
}

// In-page timings for the benchmark: a full snapshot of the top frame vs the bare counting walk.
export async function benchTab(tabId, runs = 5) {
  await injectAllFrames(tabId);
  const snapshot_ms = [];
  const walk_ms = [];
  let count = 0;
  let chars = 0;
  for (let i = 0; i < runs; i++) {
    walk_ms.push((await callInFrame(tabId, 0, "snapshot.countOnly")).timing_ms);
    const s = await callInFrame(tabId, 0, "snapshot.snapshotFrame", [{ x: 0, y: 0 }, []]);
    snapshot_ms.push(s.timing_ms);
    count = s.count;
    chars = s.elements.length;
  }
  return { runs, count, json_chars: chars, snapshot_ms, walk_ms };
}
