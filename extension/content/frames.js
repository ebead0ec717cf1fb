// Which frame id each child <iframe> holds, so a snapshot can label frames (content/walk.js frameIdOf).
// Chrome gives a content script no way to ask, so the worker has every child frame announce its id to its
// parent with postMessage (bg/inject.js announceFrames); the parent keys it by the child's WindowProxy,
// which equals iframeElement.contentWindow (cross-origin too).
//
// Any script in a child frame can post the same message, so an announcement counts only when it carries
// the one-time key the worker gave this frame for that child, just before the child announced: a page
// never sees the key (the worker passes it to the isolated worlds only), and a forged or replayed
// announcement is ignored instead of relabelling, or hiding, a frame.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.frames) return;

  const frameIds = new WeakMap(); // child WindowProxy -> frame id
  const announced = new Set(); // frame ids whose announcement checked
  const expected = new Map(); // frame id -> the key its announcement must carry
  let waiters = [];

  window.addEventListener("message", (e) => {
    const data = e.data;
    if (!data || typeof data !== "object" || typeof data.__webchallengerFrame !== "number" || !e.source) return;
    const frame = data.__webchallengerFrame;
    const key = expected.get(frame);
    if (key === undefined || typeof data.key !== "string" || data.key !== key) return;
    expected.delete(frame); // one use: a replay of this announcement is refused
    frameIds.set(e.source, frame);
    announced.add(frame);
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
  });

  // The worker, before the children announce: [{frame, key}] of the announcements to accept.
  function expect(list) {
    for (const { frame, key } of list) {
      if (typeof frame === "number" && typeof key === "string") expected.set(frame, key);
    }
    return true;
  }

  function frameIdOf(frameElement) {
    const win = frameElement.contentWindow;
    return win ? frameIds.get(win) : undefined;
  }

  // Resolves once the announcements of the expected child frames arrived (or after `ms`): they
  // travel through the browser process and may land after the worker's next call.
  function waitForFrames(ids, ms) {
    const known = () => ids.every((id) => announced.has(id));
    if (!ids.length || known()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      const check = () => {
        if (known()) {
          clearTimeout(timer);
          resolve(true);
        } else {
          waiters.push(check);
        }
      };
      waiters.push(check);
    });
  }

  wc.frames = { expect, frameIdOf, waitForFrames };
})();
