// Snapshot of a whole tab: every frame's element list, top frame first, composed into one
// SnapshotResult message by string concatenation (the frames arrive as JSON strings and are
// never parsed here: re-serializing a 50k-element page would cost more than producing it).
//
// The frames are read in parallel under one overall deadline. A page of a thousand frames, or one frame
// whose script hogs its thread, used to hold every snapshot until a 15 s timeout failed the whole of it;
// now what answered in time is returned, and each frame that did not is named in `frames_left_out`.
// The top frame is the page itself: it is always waited for (up to FRAME_TIMEOUT_MS of its own).
import { injectAllFrames, injectFrame, callInFrame, announceFrames, TabError, FrameTimeout, FRAME_TIMEOUT_MS } from "./inject.js";

const FRAMES_DEADLINE_MS = 8_000;

async function snapshotFrame(tabId, frameId, offset, expectFrames, options, ms) {
  const args = [offset, expectFrames, options];
  const started = Date.now();
  let res = await callInFrame(tabId, frameId, "snapshot.snapshotFrame", args, ms);
  if (res === null) {
    // A frame that appeared after the injection (or that the injection did not reach in time): inject and retry once.
    await injectFrame(tabId, frameId, ms - (Date.now() - started));
    res = await callInFrame(tabId, frameId, "snapshot.snapshotFrame", args, ms - (Date.now() - started));
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

const LATE = `did not answer within the snapshot's ${FRAMES_DEADLINE_MS / 1000} s`;

function leftOutJson(late) {
  return late.map((f) => `{"frame":${f.frame},"parent_frame":${f.parent},"reason":${JSON.stringify(LATE)}}`).join(",");
}

// Returns the Snapshot object as a JSON string, plus counts for logging.
// options.passive: nothing the user entered (content/snapshot.js), for passive learning.
export async function snapshotTab(tabId, options = {}) {
  const start = Date.now();
  const deadline = start + FRAMES_DEADLINE_MS;
  const left = () => Math.max(deadline - Date.now(), 1);
  // A stuck frame holds each phase until that phase's share of the deadline: injection and the frame-id
  // announcements get a quarter each, so half of it is always left for reading the frames that answer.
  await injectAllFrames(tabId, FRAMES_DEADLINE_MS / 4);
  const announced = await announceFrames(tabId, Math.min(Date.now() + FRAMES_DEADLINE_MS / 4, start + FRAMES_DEADLINE_MS / 2));
  const late = [...announced.late];
  const expect = (frameId) => announced.children.get(frameId) || [];
  const top = await snapshotFrame(tabId, 0, { x: 0, y: 0 }, expect(0), options, Math.max(left(), FRAME_TIMEOUT_MS));
  const results = new Map([[0, { res: top, parent: null }]]);

  // Each level of frames is snapshotted in parallel; children learn their offset from the
  // parent's iframe boxes, so nested frames accumulate offsets.
  let level = top.frames.map((f) => ({ ...f, parent: 0 }));
  while (level.length) {
    const todo = level.filter((f) => !results.has(f.frame));
    const settled = await Promise.allSettled(
      todo.map((f) => snapshotFrame(tabId, f.frame, { x: f.x, y: f.y }, expect(f.frame), options, left())),
    );
    level = [];
    settled.forEach((s, i) => {
      const f = todo[i];
      if (s.status !== "fulfilled") {
        if (s.reason instanceof FrameTimeout) late.push({ frame: f.frame, parent: f.parent });
        return; // a frame we may not script (e.g. a sandboxed or chrome:// frame) is left out, not fatal
      }
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
    `,"frames":[${parts.join(",")}]` +
    (late.length ? `,"frames_left_out":[${leftOutJson(late)}]` : "") +
    `,"timing_ms":${Math.round(timing * 10) / 10}}`;
  return { json, frames: parts.length, count, timing_ms: timing, left_out: late.length };
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
