// Outlines drawn over the page: the PageMem sections ("Show sections" in the side panel, `webchallenger pagemem
// --picture`) and, for a moment, the element an action is about to act on (ActionCommand.outline_ms).
//
// Neither the page's layout nor its scripts are touched by them. Everything is drawn inside a CLOSED shadow root
// made here, in the extension's isolated world, on one host element: the page can find the host (it is in the
// DOM), never what is inside it (no shadowRoot, no text, no mutation records of its content). The host is
// position:fixed, pointer-events:none and clipped to the viewport, so nothing moves, scrolls further or stops
// receiving clicks; its inline !important styles win over the page's stylesheets. Its tag is a random custom
// element name per document, so the page cannot define it beforehand nor style it by name; content/walk.js
// skips this very element (by identity, not by name: a page element of the same name is still read), so the
// outlines never appear in a snapshot or a PageMem. Shown as a manual popover, it sits in the top layer above
// the page's own modal dialogs.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.outline) return;
  const walk = wc.walk;

  const TAG = `webchallenger-outline-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  const HOST_STYLE = [
    "all: initial", "position: fixed", "inset: 0", "width: auto", "height: auto", "margin: 0", "padding: 0",
    "border: 0", "background: transparent", "overflow: hidden", "pointer-events: none", "z-index: 2147483647",
    "display: block", "contain: strict", "visibility: visible", "opacity: 1", "transform: none",
  ].map((d) => `${d} !important`).join("; ");
  // One colour per section kind; the boxes' borders are opaque so a screenshot shows them exactly.
  const CSS = `
    :host { all: initial; }
    .layer { position: absolute; left: 0; top: 0; width: 0; height: 0; }
    .box { position: absolute; box-sizing: border-box; border: 2px solid var(--c); pointer-events: none; }
    .label { position: absolute; left: -2px; top: -2px; height: 15px; max-width: max(100%, 160px); overflow: hidden;
      white-space: nowrap; text-overflow: ellipsis; background: var(--c); color: #fff;
      font: 600 11px/15px system-ui, sans-serif; padding: 0 4px; box-sizing: border-box; }
    .label.above { top: -17px; }
    .label.corner { left: auto; right: -2px; max-width: 50%; }
    .normal { --c: rgb(26, 115, 232); }
    .list { --c: rgb(24, 128, 56); }
    .list_item { --c: rgb(90, 170, 90); }
    .form { --c: rgb(232, 113, 10); }
    .modal { --c: rgb(217, 48, 37); }
    .act { --c: rgb(200, 0, 200); }
    .act.box { border-width: 3px; }
  `;

  let host = null;
  let root = null;
  let sectionsLayer = null; // the section outlines, at their snapshot's scroll, moved as the page scrolls
  let fixedLayer = null; // outlines of sections fixed to the window (a dialog, a fixed header): they stay put
  let actLayer = null; // the acted-on element's outline, in viewport coordinates
  let drawnAt = { x: 0, y: 0 };
  // The drawn section outlines anchored to their root element: [{el: the outline, root, fixed, edges}], where
  // edges are the outline's offsets from the root's box when drawn. A reflow (a block inserted above, a resize)
  // moves the roots; relayout() moves each outline with its root by those same offsets.
  let anchors = [];
  let relayoutQueued = false;
  const flashes = []; // recent acted-on outlines: [{id, kind, box, shown_at, hidden_at}] (performance.now())

  function div(cls, parent) {
    const el = document.createElement("div");
    el.className = cls;
    parent.appendChild(el);
    return el;
  }

  function ensureHost() {
    if (!host) {
      host = document.createElement(TAG);
      root = host.attachShadow({ mode: "closed" });
      const style = document.createElement("style");
      style.textContent = CSS;
      root.appendChild(style);
      sectionsLayer = div("layer", root);
      fixedLayer = div("layer", root);
      actLayer = div("layer", root);
      if (typeof host.showPopover === "function") host.setAttribute("popover", "manual");
    }
    if (host.getAttribute("style") !== HOST_STYLE) host.setAttribute("style", HOST_STYLE); // the page may have changed it
    const parent = document.documentElement;
    if (host.parentNode !== parent) parent.appendChild(host);
    raise();
  }

  // Into the top layer, above anything shown there before (a modal dialog). A page that cancels the popover's
  // beforetoggle only keeps it out of the top layer: the inline styles still show it.
  function raise() {
    if (typeof host.showPopover !== "function") return;
    try {
      if (!host.hasAttribute("popover")) host.setAttribute("popover", "manual");
      if (host.matches(":popover-open")) host.hidePopover();
      host.showPopover();
    } catch (_) {
      // not connected, or the document is in a state where popovers cannot show: the z-index does it
    }
  }

  function removeHostIfEmpty() {
    if (host && !sectionsLayer.firstChild && !fixedLayer.firstChild && !actLayer.firstChild && host.parentNode) host.remove();
  }

  function follow() {
    if (!sectionsLayer || !sectionsLayer.firstChild) return;
    const dx = window.scrollX - drawnAt.x;
    const dy = window.scrollY - drawnAt.y;
    sectionsLayer.style.transform = `translate(${-dx}px, ${-dy}px)`;
  }
  // The isolated world's own listener: the page never sees it.
  window.addEventListener("scroll", follow, { passive: true, capture: true });

  function place(el, box) {
    el.style.left = `${box.x}px`;
    el.style.top = `${box.y}px`;
    el.style.width = `${box.w}px`;
    el.style.height = `${box.h}px`;
  }

  // The label sits on the box's top edge, outside it when there is room above; without room (a box at the top of
  // the document) it goes to the box's top right corner, clear of a heading that starts the section at the left.
  function placeLabel(label, box, cls) {
    label.className = `label ${cls} ${box.y >= 17 ? "above" : "corner"}`;
  }

  function drawBox(layer, cls, box, text) {
    const el = div(`box ${cls}`, layer);
    place(el, box);
    if (text) {
      const label = div("label", el);
      label.textContent = text;
      placeLabel(label, box, cls);
    }
    return el;
  }

  // The root's box where the outline's layer draws: the viewport for a fixed section, else the document at the
  // drawing scroll (the scroll translation of follow() is applied on top).
  function rootBox(anchor) {
    const r = anchor.root.getBoundingClientRect();
    const dx = anchor.fixed ? 0 : window.scrollX - drawnAt.x;
    const dy = anchor.fixed ? 0 : window.scrollY - drawnAt.y;
    return { x: r.left + dx, y: r.top + dy, w: r.width, h: r.height };
  }

  function anchor(el, root, fixed, box) {
    const a = { el, root, fixed, edges: null };
    const r = rootBox(a);
    a.edges = { x: box.x - r.x, y: box.y - r.y, w: box.w - r.w, h: box.h - r.h };
    anchors.push(a);
  }

  // Moves every anchored outline with its root; a root no longer in the document leaves its outline where it was.
  function relayout() {
    relayoutQueued = false;
    for (const a of anchors) {
      if (!a.root.isConnected) continue;
      const r = rootBox(a);
      const box = { x: r.x + a.edges.x, y: r.y + a.edges.y, w: Math.max(0, r.w + a.edges.w), h: Math.max(0, r.h + a.edges.h) };
      place(a.el, box);
      const label = a.el.querySelector(".label");
      if (label) placeLabel(label, box, a.el.classList[1]);
    }
  }

  function queueRelayout() {
    if (relayoutQueued || !anchors.length) return;
    relayoutQueued = true;
    requestAnimationFrame(relayout);
  }

  // The page's reflows: its DOM changing (the outlines' host is outside <body> and its content is in a closed
  // shadow root, so drawing them is not one), the window's size, the document's size.
  const reflows = new MutationObserver(queueRelayout);
  const resizes = new ResizeObserver(queueRelayout);
  window.addEventListener("resize", queueRelayout, { passive: true });

  function watchReflows() {
    const body = document.body || document.documentElement;
    reflows.observe(body, { subtree: true, childList: true, attributes: true, characterData: true });
    resizes.observe(document.documentElement);
    resizes.observe(body);
  }

  function unwatchReflows() {
    reflows.disconnect();
    resizes.disconnect();
    anchors = [];
  }

  // Is the element (or an ancestor) fixed to the window, so it does not scroll with the page?
  function fixedToWindow(el) {
    for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() instanceof ShadowRoot ? n.getRootNode().host : null)) {
      if (getComputedStyle(n).position === "fixed") return true;
    }
    return false;
  }

  // sections: [{id, kind, box: {x, y, w, h}, label, root}] in top-level viewport coordinates at scroll `at`;
  // root: the id of the section's first root element in this frame, when known.
  function show(sections, at = { x: 0, y: 0 }) {
    clear();
    if (!sections.length) return 0;
    ensureHost();
    drawnAt = { x: at.x || 0, y: at.y || 0 };
    sections.forEach((s, i) => {
      const el = Number.isInteger(s.root) ? walk.findById(s.root) : null;
      const fixed = el !== null && fixedToWindow(el);
      // A fixed section was measured at the snapshot's scroll too, but it stays where the window shows it.
      const box = drawBox(fixed ? fixedLayer : sectionsLayer, s.kind, s.box, `${s.id} · ${s.kind}${s.label ? ` · ${s.label}` : ""}`);
      box.dataset.order = String(i);
      if (el !== null && el.isConnected) anchor(box, el, fixed, s.box);
    });
    follow();
    if (anchors.length) watchReflows();
    return sections.length;
  }

  function clear() {
    unwatchReflows();
    if (!sectionsLayer) return true;
    sectionsLayer.textContent = "";
    fixedLayer.textContent = "";
    sectionsLayer.style.transform = "";
    removeHostIfEmpty();
    return true;
  }

  function inViewport(r) {
    return r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth;
  }

  // Outlines element `id` of this frame for `ms`, then resolves (the action follows). An element that is off
  // screen is first scrolled to the centre, where the action would put it. False when there is no such element
  // (the action then reports it).
  async function flash(id, ms, kind = "") {
    const el = walk.findById(id);
    if (!el || !el.isConnected) return false;
    let r = el.getBoundingClientRect();
    if (!inViewport(r)) {
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      r = el.getBoundingClientRect();
    }
    ensureHost();
    const box = { x: r.left, y: r.top, w: r.width, h: r.height };
    const drawn = drawBox(actLayer, "act", { x: box.x - 3, y: box.y - 3, w: box.w + 6, h: box.h + 6 }, kind);
    const entry = { id, kind, box, shown_at: performance.now(), hidden_at: null };
    flashes.push(entry);
    if (flashes.length > 50) flashes.shift();
    await new Promise((resolve) => setTimeout(resolve, ms));
    drawn.remove();
    entry.hidden_at = performance.now();
    removeHostIfEmpty();
    return true;
  }

  // What is on the page now, read from the drawn boxes themselves (tests and the worker's count).
  function drawn() {
    if (!sectionsLayer || !host || !host.isConnected) return [];
    // In the order they were drawn (the sections' order): both layers, by their position among the labels.
    const boxes = [...sectionsLayer.children, ...fixedLayer.children];
    const order = (el) => parseInt(el.dataset.order, 10);
    boxes.sort((a, b) => order(a) - order(b));
    return boxes.map((el) => {
      const r = el.getBoundingClientRect();
      const label = el.querySelector(".label");
      const l = label ? label.getBoundingClientRect() : null;
      return {
        label: el.textContent, kind: el.classList[1], box: { x: r.left, y: r.top, w: r.width, h: r.height },
        label_box: l && { x: l.left, y: l.top, w: l.width, h: l.height },
      };
    });
  }

  wc.outline = {
    show,
    clear,
    flash,
    drawn,
    flashes: () => flashes.map((f) => ({ ...f })),
    // content/walk.js: the one element a snapshot must not read.
    isHost: (el) => el === host,
    TAG,
  };
})();
