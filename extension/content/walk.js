// Element ids and the DOM traversal shared by the snapshot and the actions.
// Injected into every frame's ISOLATED world, possibly many times per document: the guard keeps the
// first copy, so the id counter and the node->id map survive re-injection and ids stay stable.
(() => {
  // Keyed by version: after an extension update, code the old version left in this world must not
  // answer for the new one (ids restart then, which is right: the old worker's ids are gone too).
  const build = chrome.runtime.getManifest().version;
  let wc = globalThis.__webchallenger;
  if (!wc || wc.build !== build) wc = globalThis.__webchallenger = { build };
  if (wc.walk) return;

  // Content of these is never shown to a user, and svg internals are drawing detail, not page structure.
  const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "meta", "link", "head"]);
  const LEAF_TAGS = new Set(["svg", "math"]);
  // ... except a small svg with words in it: a pie menu or a dial drawn as shapes with <text> labels, whose items
  // a person clicks (they show a pointer). An icon has no <text>; a chart of hundreds of marks stays one picture.
  const MAX_SVG_WALKED = 120;
  // A pathological page can nest deeper than the JS stack; what lies below this is not worth a crash.
  const MAX_DEPTH = 1000;

  // WeakMap: removed nodes are collected, and a node keeps its id for the life of the document.
  const ids = new WeakMap();
  let nextId = 1;

  function idOf(el) {
    let id = ids.get(el);
    if (id === undefined) {
      id = nextId++;
      ids.set(el, id);
    }
    return id;
  }

  // Closed roots are only reachable through chrome.dom, and only custom elements (a '-' in the tag)
  // can host one besides a few built-ins, so the cheaper el.shadowRoot covers the rest (open roots).
  function shadowRootOf(el) {
    const open = el.shadowRoot;
    if (open) return open;
    if (el.localName.includes("-") && chrome.dom && chrome.dom.openOrClosedShadowRoot) {
      return chrome.dom.openOrClosedShadowRoot(el) || null;
    }
    return null;
  }

  // Also the host of our own outlines (content/outline.js), by identity: a page element of the same name is read.
  function skipped(el) {
    const name = el.localName;
    if (SKIP_TAGS.has(name)) return true;
    return name.startsWith("webchallenger-outline-") && wc.outline !== undefined && wc.outline.isHost(el);
  }

  function isLeaf(el) {
    if (!LEAF_TAGS.has(el.localName)) return false;
    return el.localName !== "svg" || !el.querySelector("text") || el.getElementsByTagName("*").length > MAX_SVG_WALKED;
  }

  // Finds the element with a given id by walking the same tree the snapshot walks.
  // No id->node map is kept: it would pin removed nodes in memory, and a walk costs a few ms.
  function findById(wanted) {
    let found = null;
    const visit = (el, depth) => {
      if (found || skipped(el) || depth > MAX_DEPTH) return;
      if (ids.get(el) === wanted) {
        found = el;
        return;
      }
      if (isLeaf(el)) return;
      const root = shadowRootOf(el);
      if (root) for (let c = root.firstElementChild; c; c = c.nextElementSibling) visit(c, depth + 1);
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c, depth + 1);
    };
    if (document.documentElement) visit(document.documentElement, 0);
    return found;
  }

  // The floor for the benchmark: the same traversal, doing nothing but counting.
  function countElements() {
    let count = 0;
    const visit = (el, depth) => {
      if (skipped(el) || depth > MAX_DEPTH) return;
      count++;
      if (isLeaf(el)) return;
      const root = shadowRootOf(el);
      if (root) for (let c = root.firstElementChild; c; c = c.nextElementSibling) visit(c, depth + 1);
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c, depth + 1);
    };
    if (document.documentElement) visit(document.documentElement, 0);
    return count;
  }

  // Fields that were ever secret in this document (content/secrets.js): a page's "show password" button
  // turns one into a text field, a page may unmask a PIN or relabel a field, and its value must stay as
  // secret as before. Filled at every snapshot and by an observer of type changes (which also sees a
  // password field turned to text and back between snapshots).
  const secrets = new WeakSet();
  const typeWatcher = new MutationObserver((records) => {
    for (const r of records) {
      if (r.oldValue && r.oldValue.trim().toLowerCase() === "password") secrets.add(r.target);
      else if (r.target.localName === "input" && r.target.type === "password") secrets.add(r.target);
    }
  });
  const watched = new WeakSet();
  function watchTypes(root) {
    if (watched.has(root)) return;
    watched.add(root);
    typeWatcher.observe(root, { subtree: true, attributes: true, attributeFilter: ["type"], attributeOldValue: true });
  }
  watchTypes(document);

  // Which frame id an <iframe> holds: content/frames.js learns it from announcements only the worker can
  // make (a page's forged postMessage is ignored there).
  const frameIdOf = (frameElement) => wc.frames.frameIdOf(frameElement);
  const waitForFrames = (expected, ms) => wc.frames.waitForFrames(expected, ms);

  wc.walk = {
    rememberSecret: (el) => secrets.add(el),
    everSecret: (el) => secrets.has(el),
    watchTypes,
    frameIdOf,
    waitForFrames,
    idOf,
    shadowRootOf,
    skipped,
    isLeaf,
    findById,
    countElements,
    MAX_DEPTH,
    // Ids up to this were handed out in this document: a missing one was removed, not invented.
    lastId: () => nextId - 1,
  };
})();
