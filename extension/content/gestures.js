// Pointer gestures built from synthetic DOM events (no chrome.debugger): a drag (script drag handlers and
// HTML5 drag and drop), a text selection, a slider moved to a value. Called by content/actions.js act();
// throws wc.pointer.ActionError with a readable reason, returns a note or null.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.gestures) return;
  const { ActionError, firePointer, fireMouse, hitAt, landing, center, pressFocus, hoverSequence } = wc.pointer;

  const PRESSED = { buttons: 1 };

  function lerp(a, b, t) {
    return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
  }

  // The element under a point, or `fallback` when the point is outside the viewport.
  function under(at, fallback) {
    return hitAt(at.x, at.y) || fallback;
  }

  // ----------------------------------------------------------------------------- mouse drags

  // A held mouse button moving: script drag handlers (jQuery UI's) listen on the document, so each move goes to
  // whatever is under the pointer and bubbles there; entering another element is announced as a browser does.
  class HeldPointer {
    constructor(target, at) {
      this.over = target;
      this.at = at;
      // The pointer arrives over the element before it presses, as a hand's does: jQuery UI's resizable reads
      // which edge a handle moves on its mouseover, and without one a drag of the handle resized nothing.
      hoverSequence(target, at);
      const down = firePointer(target, "pointerdown", at, { ...PRESSED, pressure: 0.5 });
      // A cancelled pointerdown suppresses the mouse events that follow it.
      this.mouse = down;
      if (down && fireMouse(target, "mousedown", at, { ...PRESSED, detail: 1 })) pressFocus(target);
    }

    moveTo(at, fallback) {
      const hit = under(at, fallback);
      if (hit !== this.over) {
        if (this.over.isConnected) fireMouse(this.over, "mouseout", at, { ...PRESSED, relatedTarget: hit });
        fireMouse(hit, "mouseover", at, { ...PRESSED, relatedTarget: this.over });
        this.over = hit;
      }
      this.at = at;
      firePointer(hit, "pointermove", at, PRESSED);
      if (this.mouse) fireMouse(hit, "mousemove", at, PRESSED);
      return hit;
    }

    release(fallback) {
      const hit = under(this.at, fallback);
      firePointer(hit, "pointerup", this.at, { pressure: 0 });
      if (this.mouse) fireMouse(hit, "mouseup", this.at, { detail: 1 });
      return hit;
    }
  }

  // ----------------------------------------------------------------------------- HTML5 drag and drop

  function dragEvent(el, type, at, dt, extra = {}) {
    return el.dispatchEvent(new DragEvent(type, {
      bubbles: true, cancelable: type !== "dragleave" && type !== "dragend", composed: true, view: window,
      clientX: at.x, clientY: at.y, screenX: at.x + window.screenX, screenY: at.y + window.screenY,
      dataTransfer: dt, ...extra,
    }));
  }

  // dragstart on the source, dragenter/dragover on every element the pointer crosses (dragleave when it leaves
  // one), drop where the last dragover was cancelled (the page accepting the drop), dragend on the source: all
  // with one DataTransfer, as a browser runs a drag. Returns a note when nothing accepted the drop.
  function html5Drag(source, start, path, fallback) {
    const dt = new DataTransfer();
    if (!dragEvent(source, "dragstart", start, dt)) return "the page cancelled the drag at its start (dragstart)";
    let over = null;
    let accepts = false;
    for (const at of path) {
      const hit = under(at, fallback);
      if (hit !== over) {
        if (over) dragEvent(over, "dragleave", at, dt, { relatedTarget: hit });
        // A cancelled dragenter makes the element the current drop target even if dragover is not cancelled.
        accepts = !dragEvent(hit, "dragenter", at, dt, { relatedTarget: over });
        over = hit;
      }
      dragEvent(source, "drag", at, dt);
      accepts = !dragEvent(hit, "dragover", at, dt) || accepts;
    }
    const end = path[path.length - 1];
    let note = null;
    if (accepts) {
      dragEvent(over, "drop", end, dt);
    } else {
      dragEvent(over, "dragleave", end, dt);
      note = "nothing under the pointer accepted the drop (no dragover was cancelled)";
    }
    dragEvent(source, "dragend", end, dt);
    return note;
  }

  // ----------------------------------------------------------------------------- drag

  // Drag `el` from its visible point to `to`'s centre, or by (dx, dy): press, `steps` moves, release. An element
  // with draggable=true (or inside one) runs HTML5 drag and drop after the press instead of mouse moves.
  function drag(el, to, dx, dy, steps) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const { target, at: start, note: covered } = landing(el);
    const end = to ? center(to) : { x: start.x + dx, y: start.y + dy };
    const path = Array.from({ length: steps }, (_, i) => lerp(start, end, (i + 1) / steps));
    const fallback = to || document.body;
    const reorder = to && reorders(el, to); // before the press: a sortable marks the item it lifts with a class
    const pointer = new HeldPointer(target, start);
    const source = target.closest('[draggable="true"]');
    let note;
    if (source) {
      note = html5Drag(source, start, path, fallback);
      firePointer(source.isConnected ? source : document.body, "pointercancel", end); // as after a native drag
    } else if (reorder) {
      homeIn(pointer, el, to, steps, fallback);
      pointer.release(fallback);
      note = null;
    } else {
      path.forEach((at) => pointer.moveTo(at, fallback));
      pointer.release(fallback);
      note = null;
    }
    return [covered, note].filter(Boolean).join("; ") || null;
  }

  // Two items of one list laid out in flow (a sortable list or grid): siblings of one tag and class, neither placed
  // by coordinates. A drop zone beside a draggable box is no item of its list.
  function reorders(el, to) {
    const inFlow = (e) => !["absolute", "fixed"].includes(getComputedStyle(e).position);
    return el.parentElement !== null && el.parentElement === to.parentElement && el.tagName === to.tagName &&
      el.className === to.className && inFlow(el) && inFlow(to);
  }

  // A sortable list moves its placeholder as the pointer crosses its items, and the items shift under it: a path
  // planned from where `to` was ends over another item. So each move heads for where `to` is now. A sortable puts
  // the item before the one under the pointer when the pointer moves up or left into that one's first half, after
  // it when moving down or right into its second half (jQuery UI's rule; a person's hand does the same): the last
  // moves come into the quarter of `to` on its side of the order, from the opposite quarter.
  function homeIn(pointer, el, to, steps, fallback) {
    const earlier = Boolean(el.compareDocumentPosition(to) & Node.DOCUMENT_POSITION_PRECEDING);
    const spot = (k) => {
      const r = to.getBoundingClientRect();
      return { x: r.left + r.width * k, y: r.top + r.height * k };
    };
    const legs = [[0.5, steps], [earlier ? 0.85 : 0.15, 2], [earlier ? 0.2 : 0.8, 3]];
    for (const [k, n] of legs) {
      for (let i = 0; i < n; i++) pointer.moveTo(lerp(pointer.at, spot(k), 1 / (n - i)), fallback);
    }
  }

  // ----------------------------------------------------------------------------- text selection

  // Text nodes of `el` with their offsets in its whole text.
  function textNodes(el) {
    const nodes = [];
    let text = "";
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      nodes.push({ node: n, from: text.length });
      text += n.data;
    }
    return { nodes, text };
  }

  function pointAt(nodes, offset, atEnd) {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const { node, from } = nodes[i];
      if (from < offset || (from === offset && !atEnd)) return { node, offset: offset - from };
    }
    return { node: nodes[0].node, offset: 0 };
  }

  // Where `wanted` first occurs in `text`: exactly, else ignoring case and runs of whitespace.
  function findText(text, wanted) {
    const exact = text.indexOf(wanted);
    if (exact >= 0) return { from: exact, to: exact + wanted.length };
    const words = wanted.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const m = new RegExp(words.join("\\s+"), "i").exec(text);
    return m ? { from: m.index, to: m.index + m[0].length } : null;
  }

  function rangeOver(el, wanted) {
    const { nodes, text } = textNodes(el);
    const whole = { from: text.search(/\S/), to: text.trimEnd().length };
    const found = !nodes.length ? null : wanted === null ? (whole.from >= 0 ? whole : null) : findText(text, wanted);
    if (!found) throw new ActionError(wanted === null ? "the element has no text" : `"${wanted.slice(0, 80)}" is not in the element's text`);
    const range = document.createRange();
    const a = pointAt(nodes, found.from, false);
    const b = pointAt(nodes, found.to, true);
    range.setStart(a.node, a.offset);
    range.setEnd(b.node, b.offset);
    return range;
  }

  // The client point of a range's first or last character.
  function edge(range, last) {
    const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 || r.height > 0);
    const r = rects.length ? rects[last ? rects.length - 1 : 0] : range.getBoundingClientRect();
    return { x: last ? r.right - 1 : r.left + 1, y: r.top + r.height / 2 };
  }

  // A press at the text's start, moves to its end, a release there, with the document's selection growing as the
  // pointer moves: a mouseup handler reading window.getSelection() sees the text (the browser itself fires
  // selectionchange when the selection is set).
  function selectText(el, wanted) {
    el.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
    const range = rangeOver(el, wanted);
    const start = edge(range, false);
    const end = edge(range, true);
    const selection = window.getSelection();
    const pointer = new HeldPointer(under(start, el), start);
    const collapsed = range.cloneRange();
    collapsed.collapse(true);
    selection.removeAllRanges();
    selection.addRange(collapsed);
    pointer.moveTo(lerp(start, end, 0.5), el);
    selection.setBaseAndExtent(range.startContainer, range.startOffset, range.endContainer, range.endOffset);
    pointer.moveTo(end, el);
    pointer.release(el);
    if (selection.toString().trim() === "") throw new ActionError("the page cleared the selection");
  }

  // ----------------------------------------------------------------------------- sliders

  function nativeRange(el) {
    return el.localName === "input" && el.type === "range" ? el : null;
  }

  function setRangeInput(el, value) {
    if (el.disabled) throw new ActionError("the slider is disabled");
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    el.focus({ preventScroll: true });
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(el, String(value));
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
    // The browser clamps to min/max and rounds to the step.
    return Number(el.value) === value ? null : `the slider took ${el.value} (its min, max or step)`;
  }

  const HANDLE = '[role="slider"], [class*="handle"], [class*="thumb"], [class*="knob"]';

  // The handle and the track it moves along: `el` may be either. The track is the nearest ancestor of the handle
  // clearly longer than the handle along one axis.
  function handleAndTrack(el) {
    const handle = el.matches(HANDLE) && !el.querySelector(HANDLE) ? el : el.querySelector(HANDLE);
    if (!handle) throw new ActionError("no slider handle found in the element");
    const h = handle.getBoundingClientRect();
    for (let t = handle.parentElement; t && t !== document.body; t = t.parentElement) {
      const r = t.getBoundingClientRect();
      if (r.width >= 2 * h.width + 10 || r.height >= 2 * h.height + 10) return { handle, track: t };
    }
    throw new ActionError("the slider handle has no track around it");
  }

  function numberIn(text) {
    const t = (text || "").trim();
    return /^[-+]?\d+(\.\d+)?$/.test(t) ? Number(t) : null;
  }

  // Elements near the track (up to three ancestors up) whose whole text is one number: where a slider without
  // aria-valuenow shows its value.
  function numberLeaves(track) {
    let scope = track;
    for (let i = 0; i < 3 && scope.parentElement && scope.parentElement !== document.documentElement; i++) scope = scope.parentElement;
    return Array.from(scope.querySelectorAll("*")).filter((e) => e.childElementCount === 0 && numberIn(e.textContent) !== null);
  }

  // A reader of the value a slider shows: the handle's aria-valuenow, else the number beside it that changed when
  // the handle moved from one end to the other (`ends` moves it there and back). Null when nothing shows one.
  function valueReader(handle, track, ends) {
    const aria = () => numberIn(handle.getAttribute("aria-valuenow"));
    const leaves = numberLeaves(track);
    const [atLow, atHigh] = ends(() => leaves.map((e) => e.textContent));
    if (aria() !== null) return aria;
    const moved = leaves.find((e, i) => atLow[i] !== atHigh[i]);
    return moved ? () => numberIn(moved.textContent) : null;
  }

  // Drag the handle along its track, searching (by halves) for the point where the slider shows `value`; the value
  // shown is assumed to grow or shrink steadily along the track. Returns a note when `value` could not be reached.
  function dragSlider(el, value) {
    const { handle, track } = handleAndTrack(el);
    handle.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const t = track.getBoundingClientRect();
    const h = center(handle);
    const across = t.width >= t.height;
    const point = (p) => (across ? { x: p, y: h.y } : { x: h.x, y: p });
    const lo = across ? t.left + 1 : t.top + 1;
    const hi = across ? t.right - 1 : t.bottom - 1;
    const pointer = new HeldPointer(landing(handle).target, h);
    const move = (p) => pointer.moveTo(point(p), track);
    const read = valueReader(handle, track, (snap) => {
      move(lo);
      const low = snap();
      move(hi);
      return [low, snap()];
    });
    if (read === null) {
      pointer.release(track);
      throw new ActionError("the slider shows no value as it moves (no aria-valuenow, no number beside it): drag it by an offset");
    }
    const vHigh = read();
    let best = { p: hi, v: vHigh };
    const consider = (p) => {
      move(p);
      const v = read();
      if (v !== null && Math.abs(v - value) < Math.abs(best.v - value)) best = { p, v };
      return v;
    };
    const vLow = consider(lo);
    const rising = vHigh >= vLow;
    let [a, b] = [lo, hi];
    for (let i = 0; i < 16 && b - a > 0.5 && best.v !== value; i++) {
      const mid = (a + b) / 2;
      const v = consider(mid);
      if (v === null) break;
      if ((v < value) === rising) a = mid;
      else b = mid;
    }
    move(best.p);
    pointer.release(track);
    const shown = read();
    return shown === value ? null : `the slider shows ${shown} (the nearest it reaches to ${value})`;
  }

  function setSlider(el, value) {
    const input = nativeRange(el) || el.querySelector('input[type="range"]');
    return input ? setRangeInput(input, value) : dragSlider(el, value);
  }

  wc.gestures = { drag, selectText, setSlider };
})();
