// Performs one action (companion/protocol.py Action) on an element of this frame, as a user would.
// Returns {ok: true} or {ok: false, error: "<readable reason>"}; never throws to the worker.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.actions) return;
  const walk = wc.walk;

  class ActionError extends Error {}

  function resolve(ref) {
    const id = ref.id;
    const el = walk.findById(id);
    if (el && el.isConnected) return el;
    if (id >= 1 && id <= walk.lastId()) throw new ActionError(`element ${id} is no longer on the page`);
    throw new ActionError(`element ${id} is unknown in this frame (take a new snapshot)`);
  }

  function center(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // Mouse events at a point (x, y: client coordinates of this frame), as the browser builds them.
  function mouseInit(x, y, extra) {
    return {
      bubbles: true, cancelable: true, composed: true, view: window,
      clientX: x, clientY: y, screenX: x + window.screenX, screenY: y + window.screenY,
      button: 0, buttons: 0, ...extra,
    };
  }

  function firePointer(el, type, at, extra = {}) {
    const init = mouseInit(at.x, at.y, { pointerId: 1, pointerType: "mouse", isPrimary: true, ...extra });
    return el.dispatchEvent(new PointerEvent(type, init));
  }

  function fireMouse(el, type, at, extra = {}) {
    return el.dispatchEvent(new MouseEvent(type, mouseInit(at.x, at.y, extra)));
  }

  // ----------------------------------------------------------------------------- where a click lands

  // The parent in the tree events travel: a slotted node's slot, a shadow root's host.
  function composedParent(node) {
    if (node.assignedSlot) return node.assignedSlot;
    const p = node.parentNode;
    return p instanceof ShadowRoot ? p.host : p;
  }

  function composedContains(outer, node) {
    for (let n = node; n; n = composedParent(n)) if (n === outer) return true;
    return false;
  }

  // The topmost element at a point, looking into shadow roots (open or closed) as hit testing does.
  function hitAt(x, y) {
    let hit = document.elementFromPoint(x, y);
    for (let depth = 0; hit && depth < 32; depth++) {
      const root = walk.shadowRootOf(hit);
      const inner = root ? root.elementFromPoint(x, y) : null;
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  // A label's click activates its control: a hit inside el's label counts as a hit on el.
  function labelsFor(el, hit) {
    for (let n = hit; n; n = composedParent(n)) {
      if (n.localName === "label") return n.control === el;
    }
    return false;
  }

  // Points to try in one client rect, clipped to the viewport: its centre first, then points around it
  // (a partly covered element is still clicked where it shows).
  function pointsIn(r) {
    const x0 = Math.max(r.left, 0);
    const y0 = Math.max(r.top, 0);
    const x1 = Math.min(r.right, document.documentElement.clientWidth || window.innerWidth);
    const y1 = Math.min(r.bottom, document.documentElement.clientHeight || window.innerHeight);
    if (x1 - x0 < 1 || y1 - y0 < 1) return [];
    const at = (fx, fy) => ({ x: x0 + (x1 - x0) * fx, y: y0 + (y1 - y0) * fy });
    return [at(0.5, 0.5), at(0.25, 0.5), at(0.75, 0.5), at(0.5, 0.25), at(0.5, 0.75)];
  }

  // Short, for a result note: <div id="overlay" class="backdrop">.
  function describe(el) {
    let s = `<${el.localName}`;
    const id = el.getAttribute("id");
    const cls = el.getAttribute("class");
    if (id) s += ` id="${id.slice(0, 40)}"`;
    if (cls) s += ` class="${cls.trim().slice(0, 60)}"`;
    return s + ">";
  }

  // Where a person's click on el lands: {target, at, note}. The target is what is under the pointer at
  // the first visible point of el's client rects, when that is el, inside el or inside el's label. When
  // every point shows something else (an overlay), or el has no box in the viewport, the events go to el
  // itself at its centre, and a covering element is named in the note.
  function landing(el) {
    const rects = Array.from(el.getClientRects()).slice(0, 8);
    let cover = null;
    for (const r of rects) {
      for (const at of pointsIn(r)) {
        const hit = hitAt(at.x, at.y);
        if (!hit) continue;
        if (hit === el || composedContains(el, hit) || labelsFor(el, hit)) return { target: hit, at, note: null };
        // A hit on an ancestor (el lets the pointer through) is no cover: el's events reach it anyway.
        if (!cover && !composedContains(hit, el)) cover = { hit, at };
      }
    }
    if (cover) {
      const note = `${describe(el)} was covered by ${describe(cover.hit)} at (${Math.round(cover.at.x)}, ${Math.round(cover.at.y)}); the click was sent to the element itself`;
      return { target: el, at: center(el), note };
    }
    return { target: el, at: center(el), note: null };
  }

  // What a mouse press moves focus to: the nearest focusable element from the pressed one up, or nothing
  // (focus leaves the field it was in).
  function focusTargetOf(node) {
    for (let n = node; n; n = composedParent(n)) {
      if (n.nodeType !== 1) continue;
      if (n.disabled) return null;
      if (typeof n.focus !== "function") continue;
      if (n.hasAttribute("tabindex")) return n;
      // Inside an editable region only its editing host takes focus.
      if (n.isContentEditable) {
        const p = composedParent(n);
        if (!(p && p.isContentEditable)) return n;
        continue;
      }
      // A link without href reports tabIndex 0 yet takes no focus.
      if ((n.localName === "a" || n.localName === "area") && !n.hasAttribute("href")) continue;
      if (n.tabIndex >= 0) return n;
    }
    return null;
  }

  function pressFocus(target) {
    const to = focusTargetOf(target);
    if (to) {
      if (to !== (to.getRootNode().activeElement ?? document.activeElement)) to.focus({ preventScroll: true });
    } else if (document.activeElement && document.activeElement !== document.body) {
      document.activeElement.blur();
    }
  }

  function fire(el, type) {
    el.dispatchEvent(new Event(type, { bubbles: true }));
  }

  function isTextField(el) {
    if (el.localName === "textarea") return true;
    if (el.localName !== "input") return false;
    return !["checkbox", "radio", "button", "submit", "reset", "image", "file", "range", "color", "hidden"].includes(el.type);
  }

  // What a mouse moving onto the element makes the page see (CSS :hover cannot be triggered from script). The
  // enter events do not bubble: a browser sends one to every element the pointer comes into, the outermost first,
  // so a menu entry listening on its <li> opens its submenu when the pointer reaches the text inside it.
  function hoverSequence(el, at) {
    const entered = [];
    for (let n = el; n && n.nodeType === Node.ELEMENT_NODE; n = composedParent(n)) entered.unshift(n);
    firePointer(el, "pointerover", at);
    for (const n of entered) firePointer(n, "pointerenter", at, { bubbles: false });
    fireMouse(el, "mouseover", at);
    for (const n of entered) fireMouse(n, "mouseenter", at, { bubbles: false });
    firePointer(el, "pointermove", at);
    fireMouse(el, "mousemove", at);
  }

  // A person's click: the pointer moves onto the element's visible point and presses there, so the events
  // go to the topmost element under it (a tab's inner link, an icon inside a button) and bubble up through
  // the element; focus moves on the press. The click event's default action follows links, toggles
  // checkboxes, submits forms and activates labels: it is dispatched once, so nothing toggles twice.
  // Returns a note when the element was covered (see landing()).
  function click(el) {
    if (el.disabled) throw new ActionError(`element is disabled`);
    // A native <select>'s options open in a browser popup a script cannot click: choose it instead.
    const select = el.localName === "option" ? el.closest("select") : null;
    if (select) {
      selectOption(select, el.value, null);
      return null;
    }
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const { target, at, note } = landing(el);
    hoverSequence(target, at);
    const down = firePointer(target, "pointerdown", at, { buttons: 1, pressure: 0.5 });
    // A cancelled pointerdown suppresses the mouse events that follow it, not the click.
    let focusing = true;
    if (down) focusing = fireMouse(target, "mousedown", at, { buttons: 1, detail: 1 });
    if (focusing) pressFocus(target);
    // The press may have re-rendered the element (a handler replacing it): the release lands on what is
    // there now, as it would under a real pointer.
    const up = target.isConnected ? target : el.isConnected ? el : null;
    if (!up) return note;
    firePointer(up, "pointerup", at);
    if (down) fireMouse(up, "mouseup", at, { detail: 1 });
    if (up.disabled) return note;
    fireMouse(up, "click", at, { detail: 1 });
    return note;
  }

  function selectAllIn(el) {
    if (isTextField(el)) {
      el.select();
    } else {
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
  }

  function caretToEnd(el) {
    if (isTextField(el)) {
      const n = el.value.length;
      try {
        el.setSelectionRange(n, n);
      } catch (_) {
        // email/number inputs do not support selection ranges; the caret is at the end anyway.
      }
    } else {
      const range = document.createRange();
      range.selectNodeContents(el);
      range.collapse(false);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
  }

  // The page's framework may have replaced the value setter; the prototype's one updates the field
  // the way typing does, so React-style trackers see a change.
  function setNativeValue(el, value) {
    const proto = el.localName === "textarea" ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value").set.call(el, value);
    el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: value }));
  }

  function currentText(el) {
    return isTextField(el) ? el.value : el.textContent;
  }

  // A date/time field takes only its ISO value: what was typed is read as a date or time first (datetime.js).
  // Typing replaces the whole value (appending to a date means nothing).
  function typeDateTime(el, text) {
    const read = wc.datetime.toFieldValue(el, text);
    if (read.error) throw new ActionError(read.error);
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    el.focus({ preventScroll: true });
    setNativeValue(el, read.value);
    fire(el, "change");
    // The browser drops a value it does not accept: nothing must look typed that was not.
    if (el.value !== read.value) throw new ActionError(`the ${el.type} field did not accept "${read.value}" (read from "${text}")`);
  }

  function type(el, text, mode) {
    const editable = isTextField(el) || el.isContentEditable;
    if (!editable) throw new ActionError(`element <${el.localName}> does not accept text`);
    if (el.disabled || el.readOnly) throw new ActionError(`element is ${el.disabled ? "disabled" : "read-only"}`);
    if (wc.datetime && wc.datetime.isDateTimeField(el)) return typeDateTime(el, text);
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    el.focus({ preventScroll: true });
    const before = currentText(el);
    const expected = mode === "append" ? before + text : text;
    if (mode === "append") caretToEnd(el);
    else selectAllIn(el);
    // execCommand goes through the editor: the page receives beforeinput/input like real typing.
    let done = false;
    try {
      done = text === "" ? document.execCommand("delete") : document.execCommand("insertText", false, text);
    } catch (_) {
      done = false;
    }
    if (!done || currentText(el) !== expected) {
      if (isTextField(el)) setNativeValue(el, expected);
      else if (!done) el.textContent = expected;
    }
    if (isTextField(el)) fire(el, "change");
  }

  function selectOption(el, value, label) {
    if (el.localName !== "select") throw new ActionError(`element <${el.localName}> is not a <select>`);
    if (el.disabled) throw new ActionError(`element is disabled`);
    const options = Array.from(el.options);
    let opt = null;
    if (value !== undefined && value !== null) opt = options.find((o) => o.value === value);
    if (!opt && label !== undefined && label !== null) {
      const want = label.trim().replace(/\s+/g, " ");
      opt = options.find((o) => o.label.trim().replace(/\s+/g, " ") === want) ||
        options.find((o) => o.text.trim().replace(/\s+/g, " ").toLowerCase() === want.toLowerCase());
    }
    if (!opt) {
      const asked = value !== undefined && value !== null ? `value "${value}"` : `label "${label}"`;
      throw new ActionError(`no option with ${asked} in this <select>`);
    }
    if (opt.disabled) throw new ActionError(`option "${opt.label}" is disabled`);
    el.focus({ preventScroll: true });
    opt.selected = true;
    fire(el, "input");
    fire(el, "change");
  }

  function setChecked(el, checked) {
    if (el.localName !== "input" || (el.type !== "checkbox" && el.type !== "radio")) {
      // ARIA checkboxes (role=checkbox/switch) toggle by clicking, like the native ones.
      const role = el.getAttribute("role");
      if (role !== "checkbox" && role !== "switch" && role !== "radio" && role !== "menuitemcheckbox") {
        throw new ActionError(`element <${el.localName}> is not a checkbox or radio button`);
      }
      return (el.getAttribute("aria-checked") === "true") !== checked ? click(el) : null;
    }
    if (el.checked === checked) return null;
    if (el.type === "radio" && !checked) throw new ActionError("a radio button cannot be unchecked; choose another option of its group");
    return click(el);
  }

  // ----------------------------------------------------------------------------- keys

  const KEYS = {
    Enter: { key: "Enter", code: "Enter", keyCode: 13 },
    Escape: { key: "Escape", code: "Escape", keyCode: 27 },
    Tab: { key: "Tab", code: "Tab", keyCode: 9 },
    ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
    ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
    ArrowLeft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
    ArrowRight: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
    Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
    Space: { key: " ", code: "Space", keyCode: 32 },
  };

  function keyEvent(el, type, k) {
    return el.dispatchEvent(new KeyboardEvent(type, {
      key: k.key, code: k.code, keyCode: k.keyCode, which: k.keyCode,
      bubbles: true, cancelable: true, composed: true, view: window,
    }));
  }

  function tabbables() {
    const sel = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], [contenteditable]:not([contenteditable=false])";
    return Array.from(document.querySelectorAll(sel)).filter(
      (e) => !e.disabled && e.tabIndex >= 0 && e.checkVisibility({ visibilityProperty: true }),
    );
  }

  function implicitSubmit(el) {
    const form = el.form;
    if (!form) return;
    // As a browser does: the first submit button in tree order that the form owns (`e.form` honours form=, and a
    // button's `type` reads submit for a missing or unknown type) is the submitter; without one the form still
    // submits. (form.elements would leave out image buttons.)
    const submitter = Array.from(form.getRootNode().querySelectorAll("button, input")).find(
      (e) => e.form === form && (e.type === "submit" || e.type === "image"),
    );
    if (submitter && submitter.disabled) return;
    form.requestSubmit(submitter || undefined);
  }

  // Default actions a browser performs for a key the page did not cancel.
  function keyDefault(el, name) {
    const text = isTextField(el) || el.isContentEditable;
    switch (name) {
      case "Enter":
        if (el.localName === "textarea" || (el.isContentEditable && !isTextField(el))) {
          document.execCommand("insertLineBreak");
        } else if (el.localName === "input" && !["button", "submit", "reset", "checkbox", "radio", "file"].includes(el.type)) {
          implicitSubmit(el);
        } else if (el.localName === "a" || el.localName === "button" || el.localName === "summary" || (el.localName === "input" && el.type !== "file")) {
          el.click();
        }
        return;
      case "Space":
        if (text) document.execCommand("insertText", false, " ");
        else if (el.localName === "button" || el.localName === "summary" || (el.localName === "input" && ["checkbox", "radio", "button", "submit", "reset"].includes(el.type))) el.click();
        else window.scrollBy(0, window.innerHeight * 0.8);
        return;
      case "Backspace":
        if (text) document.execCommand("delete");
        return;
      case "Tab": {
        const list = tabbables();
        const at = list.indexOf(el);
        const next = list[(at + 1) % Math.max(list.length, 1)];
        if (next) next.focus();
        return;
      }
      case "ArrowUp":
      case "ArrowDown":
        if (el.localName === "select" && el.options.length) {
          const step = name === "ArrowDown" ? 1 : -1;
          const to = Math.min(el.options.length - 1, Math.max(0, el.selectedIndex + step));
          if (to !== el.selectedIndex) {
            el.selectedIndex = to;
            fire(el, "input");
            fire(el, "change");
          }
        } else if (!text) {
          window.scrollBy(0, name === "ArrowDown" ? 40 : -40);
        }
        return;
      case "ArrowLeft":
      case "ArrowRight":
        if (!text) window.scrollBy(name === "ArrowRight" ? 40 : -40, 0);
        return;
      default:
        return; // Escape: the page's own handlers are the whole effect.
    }
  }

  function press(el, name) {
    const k = KEYS[name];
    if (!k) throw new ActionError(`unsupported key "${name}"`);
    let proceed = keyEvent(el, "keydown", k);
    // keypress exists only for keys that produce a character (Enter counts).
    if (proceed && (name === "Enter" || name === "Space")) proceed = keyEvent(el, "keypress", k);
    if (proceed) keyDefault(el, name);
    // Focus may have moved (Tab): keyup goes to whatever is focused now, as in a browser.
    keyEvent(document.activeElement || el, "keyup", k);
  }

  // ----------------------------------------------------------------------------- misc

  function scroll(el, dx, dy) {
    if (el) el.scrollBy({ left: dx, top: dy, behavior: "instant" });
    else window.scrollBy({ left: dx, top: dy, behavior: "instant" });
  }

  function upload(el, name, mime, b64) {
    if (el.localName !== "input" || el.type !== "file") throw new ActionError(`element <${el.localName}> is not a file input`);
    let bytes;
    try {
      const bin = atob(b64);
      bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    } catch (_) {
      throw new ActionError("content_b64 is not valid base64");
    }
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], name, { type: mime }));
    el.files = dt.files;
    fire(el, "input");
    fire(el, "change");
  }

  function act(action) {
    try {
      const el = action.target ? resolve(action.target) : null;
      let note = null; // something the caller should know although the action was done
      switch (action.kind) {
        case "click": note = click(el); break;
        case "type": type(el, action.text, action.mode || "replace"); break;
        case "clear": type(el, "", "replace"); break;
        case "select": selectOption(el, action.value, action.label); break;
        case "check": note = setChecked(el, action.checked !== false); break;
        case "press": {
          if (el) el.focus({ preventScroll: false });
          press(el || document.activeElement || document.body, action.key);
          break;
        }
        case "hover": {
          el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
          const where = landing(el);
          hoverSequence(where.target, where.at);
          note = where.note;
          break;
        }
        case "scroll": scroll(el, action.dx || 0, action.dy || 0); break;
        case "focus": el.focus(); break;
        case "upload": upload(el, action.name, action.mime || "application/octet-stream", action.content_b64); break;
        // Pointer gestures (content/gestures.js): drags, text selection, sliders.
        case "drag": note = wc.gestures.drag(el, action.to ? resolve(action.to) : null, action.dx || 0, action.dy || 0, action.steps || 8); break;
        case "select_text": wc.gestures.selectText(el, action.text ?? null); break;
        case "slider": note = wc.gestures.setSlider(el, action.value); break;
        default:
          throw new ActionError(`action "${action.kind}" is not done inside the page`);
      }
      return note ? { ok: true, note } : { ok: true };
    } catch (e) {
      if (e instanceof ActionError) return { ok: false, error: e.message };
      return { ok: false, error: `${action.kind} failed: ${e && e.message ? e.message : String(e)}` };
    }
  }

  wc.actions = { act };
  // What content/gestures.js builds its pointer sequences from.
  wc.pointer = { ActionError, firePointer, fireMouse, hitAt, landing, center, pressFocus, setNativeValue, fire, hoverSequence };
})();
