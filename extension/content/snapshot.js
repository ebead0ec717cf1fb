// Serializes one frame's DOM into the wire format's element list (companion/protocol.py SnapshotElement).
// Returns the list as a JSON STRING: handing a large object back through executeScript costs seconds.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.snapshot) return;
  const walk = wc.walk;
  const secrets = wc.secrets;

  const KEPT_ATTRS = new Set([
    "id", "class", "name", "type", "role", "href", "src", "alt", "title",
    "placeholder", "for", "tabindex", "contenteditable", "disabled",
    // SubmitForm's validation pass re-asks for empty required fields.
    "required",
    // A list that keeps several options selected (companion/act/named_fields.py: each one the task names).
    "multiple",
    // What a form does when submitted (companion/act/form_effect.py decides confirmation by these).
    "method", "action", "formmethod", "formaction", "autocomplete",
    // Pointer gestures (companion/act/gestures.py): what can be dragged, a range input's bounds.
    "draggable", "min", "max", "step",
    // A field that takes no typing: a date picker's field is chosen on its calendar (companion/act/date_picker.py).
    "readonly",
  ]);
  // Cursors that say "drag me" (a script drag handler's item).
  const DRAG_CURSORS = new Set(["move", "grab", "grabbing", "all-scroll"]);
  // Cursors that say "drag me to resize" (a resizable box's handle, a split pane's or a column's divider).
  const RESIZE_CURSORS = new Set(["e-resize", "w-resize", "n-resize", "s-resize", "ne-resize", "nw-resize", "se-resize",
    "sw-resize", "ew-resize", "ns-resize", "nesw-resize", "nwse-resize", "col-resize", "row-resize"]);
  const HANDLER_ATTRS = new Set([
    "onclick", "ondblclick", "onmousedown", "onmouseup", "onpointerdown", "onpointerup",
    "ontouchstart", "onkeydown", "onkeyup", "onkeypress", "onchange", "oninput",
  ]);
  const INTERACTIVE_TAGS = new Set(["button", "select", "textarea", "summary", "input"]);
  const WIDGET_ROLES = new Set([
    "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "combobox", "textbox", "searchbox", "slider", "spinbutton",
    "listbox", "treeitem", "gridcell", "scrollbar",
  ]);
  const VALUE_TAGS = new Set(["input", "textarea", "select"]);
  const FORM_OWNED = new Set(["button", "input", "select", "textarea", "fieldset", "output", "object"]);
  // Page structure that is practically never the click target itself: no cursor check. Should one
  // show a pointer anyway, its children inherit it and are flagged in its place.
  const STRUCTURAL_TAGS = new Set([
    "html", "body", "main", "header", "footer", "nav", "section", "article", "aside", "form", "fieldset",
    "table", "thead", "tbody", "tfoot", "ul", "ol", "dl", "br", "hr", "wbr", "picture", "source", "track",
  ]);
  const MAX_TEXT = 300;
  // Phrasing elements: rendered inline, their text flows inside their parent's sentence ("Find the email
  // by <b>Agustina</b> and forward it"). Form controls are not among them: their text is options or a value.
  const PHRASING_TAGS = new Set([
    "span", "a", "b", "strong", "em", "i", "u", "s", "small", "big", "mark", "code", "kbd", "samp", "var", "sub",
    "sup", "abbr", "cite", "q", "dfn", "time", "label", "font", "tt", "strike", "del", "ins", "bdi", "bdo",
    "data", "output", "nobr", "br",
  ]);
  const MAX_ATTR = 200;
  const MAX_VALUE = 2000;
  // Where a link or form goes is sent whole (`url`): a cut one could name one host and lead to another.
  // Only a URL past this (in practice a data: URL) is cut, and then marked so it is never followed.
  const MAX_URL = 8192;
  // What a secret field's own attributes say of its value (its current value, read out to a screen reader).
  const VALUE_ATTRS = ["aria-valuetext", "aria-valuenow"];

  // A control's action is its own (a field, a link's target, a label's control): never one of a container's pieces.
  const OWN_ACTION_TAGS = new Set(["button", "select", "textarea", "summary", "input", "a", "area", "label", "audio", "video"]);
  // An icon a piece of a clickable container shows: an image, a drawing, an icon font's class, a glyph.
  const ICON_CLASS = /(^|[\s_-])(icon|icons|fa|fas|far|fab|glyphicon|bi|mdi|octicon|material-icons|material-symbols-outlined)([\s_-]|$)/i;
  const GLYPH_TEXT = /^[^\p{L}\p{N}\s]{1,3}$/u;
  const PIECE_RECORDS = 12; // a piece bigger than this is content, not an icon with its label
  const SPLIT_RECORDS = 400; // a clickable container bigger than this is a page region: not looked into

  const round = (n) => Math.round(n * 10) / 10;
  const RENDERS = { opacityProperty: true, visibilityProperty: true }; // one object, not one per call

  function cap(s, max) {
    return s.length > max ? s.slice(0, max) : s;
  }

  // data: URLs can be megabytes; their head says all a selector needs.
  function attrValue(name, value) {
    if ((name === "src" || name === "href") && value.startsWith("data:")) return cap(value, 64);
    return cap(value, MAX_ATTR);
  }

  // The absolute URL the browser itself resolves `raw` to, against this element's document base (so a
  // link in a frame resolves against its frame, <base href> included). "" when the browser cannot parse it.
  function resolvedUrl(el, raw) {
    try {
      return new URL(raw, el.baseURI).href;
    } catch {
      return "";
    }
  }

  // Where activating the element navigates: links (href), forms (action; the document itself when there
  // is none) and submit buttons with their own formaction.
  function targetUrl(el, tag) {
    if (tag === "a" || tag === "area") {
      const raw = el.getAttribute("href") ?? el.getAttribute("xlink:href");
      return raw === null ? null : resolvedUrl(el, raw);
    }
    if (tag === "form") {
      const action = el.getAttribute("action");
      return action ? resolvedUrl(el, action) : document.URL;
    }
    if ((tag === "button" || tag === "input") && el.hasAttribute("formaction")) {
      const action = el.getAttribute("formaction");
      return action ? resolvedUrl(el, action) : document.URL;
    }
    return null;
  }

  // Rendered where no person can see it: placed left of or above the page, where no scrolling reaches
  // (left: -9999px), or at most 1 px wide or tall with its content clipped (the sr-only / visually-hidden
  // pattern). Only such boxes pay for a style read. Size alone never hides: a 9 px link is a link.
  // (In a right-to-left document the page does extend to the left: only "above" is off it there.)
  let leftIsOffPage = true;
  function hiddenAway(el, r) {
    if ((leftIsOffPage && r.right + window.scrollX <= 0) || r.bottom + window.scrollY <= 0) return true;
    if (r.width > 1 && r.height > 1) return false;
    const cs = getComputedStyle(el);
    return cs.overflow !== "visible" || cs.clip !== "auto" || cs.clipPath !== "none";
  }

  const DIALOG_ROLES = new Set(["dialog", "alertdialog"]);
  function isDialog(el, tag, attrs) {
    if (tag === "dialog") return true;
    if (!attrs) return false;
    return DIALOG_ROLES.has((attrs.role || "").trim().split(/\s+/)[0]) || attrs["aria-modal"] === "true";
  }

  // Is the page behind this dialog really inert (CheckModal)? aria-modal alone says nothing: many cookie
  // banners claim it and leave the page usable. It is when the browser says so (:modal, a showModal()
  // dialog), when everything around it is `inert`, or when a full-viewport overlay takes every click
  // outside it (sampled on a grid of points around the dialog).
  function blocksPage(el, r) {
    try {
      if (el.matches(":modal")) return true;
    } catch {
      // a browser without :modal: the other two tests decide
    }
    return restIsInert(el) || overlayTakesClicks(el, r);
  }

  function restIsInert(el) {
    let sawInert = false;
    for (let node = el; node && node.parentElement && node !== document.body; node = node.parentElement) {
      for (let sib = node.parentElement.firstElementChild; sib; sib = sib.nextElementSibling) {
        if (sib === node || walk.skipped(sib)) continue;
        if (sib.inert) sawInert = true;
        else if (sib.checkVisibility()) return false;
      }
    }
    return sawInert;
  }

  const GRID = [0.05, 0.5, 0.95];
  function overlayTakesClicks(el, r) {
    const w = window.innerWidth;
    const h = window.innerHeight;
    const root = el.getRootNode(); // inside a shadow root, hits there are not retargeted to the host
    const scope = typeof root.elementFromPoint === "function" ? root : document;
    // The dialog is on screen and on top (an overlay some other thing put up is not its backdrop).
    const left = Math.max(r.left, 0);
    const right = Math.min(r.right, w);
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, h);
    if (right <= left || bottom <= top) return false;
    const own = scope.elementFromPoint((left + right) / 2, (top + bottom) / 2);
    if (!own || !el.contains(own)) return false;
    let outside = 0;
    for (const fx of GRID) {
      for (const fy of GRID) {
        const x = fx * w;
        const y = fy * h;
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) continue;
        outside++;
        const hit = scope.elementFromPoint(x, y);
        if (!hit || el.contains(hit)) continue; // the dialog itself is there
        if (!isOverlay(hit, w, h)) return false;
      }
    }
    return outside > 0 || (r.width >= w * 0.9 && r.height >= h * 0.9);
  }

  // A positioned box over (nearly) the whole viewport: a backdrop, not page content.
  function isOverlay(hit, w, h) {
    if (hit === document.documentElement || hit === document.body) return false;
    const b = hit.getBoundingClientRect();
    if (b.width < w * 0.9 || b.height < h * 0.9) return false;
    const position = getComputedStyle(hit).position;
    return position === "fixed" || position === "absolute" || position === "sticky";
  }

  // Does records[from, to) show an icon? (els: their elements, for the styles that draw one: content:url()
  // or a background image on an empty box.)
  function showsIcon(records, els, from, to) {
    if (to - from > PIECE_RECORDS) return false;
    for (let i = from; i < to; i++) {
      const rec = records[i];
      if (!rec.visible && !rec.box) continue;
      if (rec.tag === "img" || rec.tag === "svg" || (rec.text && GLYPH_TEXT.test(rec.text))) return true;
      if (rec.attrs && rec.attrs.class && ICON_CLASS.test(rec.attrs.class)) return true;
      if (!rec.text && rec.box) {
        const cs = getComputedStyle(els[i]);
        if (cs.content.startsWith("url(") || cs.backgroundImage !== "none") return true;
      }
    }
    return false;
  }

  // Text a person sees: a closed menu's entries inside the control (no box) do not name it.
  function textIn(records, from, to) {
    for (let i = from; i < to; i++) if (records[i].text && records[i].box) return true;
    return false;
  }

  // The image a box draws by style (content: url() or a background image), for a control with no text: its
  // file name says what the icon is (companion/pagemem/icon_names.py). The first of records[from, to) with a box.
  const CSS_URL = /url\(\s*(['"]?)(.*?)\1\s*\)/;
  function drawnIcon(records, els, from, to) {
    for (let i = from; i < Math.min(to, from + PIECE_RECORDS); i++) {
      if (!records[i].box) continue;
      const url = styleIcon(els[i]);
      if (url) return url;
    }
    return "";
  }

  function styleIcon(el) {
    const cs = getComputedStyle(el);
    const m = CSS_URL.exec(cs.content.startsWith("url(") ? cs.content : cs.backgroundImage);
    return m && m[2] && !m[2].startsWith("data:") ? cap(m[2], MAX_ATTR) : "";
  }

  // A small control with nothing inside it, filled with one solid colour: a colour picker's swatch. Its colour is
  // all it shows (#rrggbb; companion/pagemem/render.py names it by the nearest CSS colour).
  const SWATCH_MAX_PX = 48;
  const RGB = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/;
  // An empty box only: no child element (an icon's <i> or <svg>) and nothing drawn before or after it (an icon font's
  // glyph), so a coloured button holding an icon is named by its icon.
  function swatchColour(el, box) {
    if (!box || box.width > SWATCH_MAX_PX || box.height > SWATCH_MAX_PX || box.width < 4 || box.height < 4) return "";
    if (el.childElementCount > 0) return "";
    for (const pseudo of ["::before", "::after"]) {
      const content = getComputedStyle(el, pseudo).content;
      if (content && content !== "none" && content !== "normal" && content !== '""') return "";
    }
    const m = RGB.exec(getComputedStyle(el).backgroundColor);
    if (!m || (m[4] !== undefined && Number(m[4]) < 1)) return "";
    return "#" + [m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("");
  }

  // A clickable container holding several controls is not one control (a bar of "Reply" and "Forward" icons
  // read as one "Reply Forward"). kids: [from, to) ranges of its children's records.
  // - byCursor (the container is clickable by its pointer cursor alone): its children share that cursor, so
  //   none was found clickable on its own. When it holds nothing but pieces that each show an icon (with or
  //   without a label), those are the controls a person sees (their handlers, bound by script, are invisible
  //   here). Two at least, and nothing else in it: a card with a title and a picture stays one card.
  // - A container holding two controls or more and nothing of its own beside them (no text outside them) only
  //   wraps them: it stops being an element, so each control is chosen for itself.
  function splitControls(rec, kids, records, els, ownText, byCursor) {
    const [first] = kids[0];
    if (records.length - first > SPLIT_RECORDS) return;
    // The clickable container is the list itself (an autocomplete's suggestions: a focusable <ul>, one handler on
    // it): each worded item is a control (clicked as one, the list's centre picked "Burkina Faso" of three).
    if (!ownText && LIST_TAGS.has(rec.tag)) {
      const items = kids.filter(([from]) => records[from].visible);
      if (items.length >= 2 && items.every(([from, to]) => records[from].tag === "li" && hasText(records, from, to))) {
        for (const [from] of items) records[from].interactive = true;
        delete rec.interactive;
        return;
      }
    }
    let controls = 0;
    let loose = ownText;
    const pieces = [];
    const listed = [];
    for (const [from, to] of kids) {
      let seen = false;
      let inner = false;
      let text = false;
      for (let i = from; i < to; i++) {
        const r = records[i];
        if (r.visible) seen = true;
        if (r.interactive) inner = true;
        if (r.visible && r.text) text = true;
      }
      if (!seen) continue;
      const items = byCursor && !inner ? listItems(records, from, to) : null;
      if (inner) controls++;
      else if (items) listed.push(...items);
      else if (byCursor && showsIcon(records, els, from, to)) pieces.push([from, text]);
      else if (text) loose = true;
    }
    if (pieces.length + listed.length >= 2 && !loose) {
      for (const [from] of pieces) records[from].interactive = true;
      for (const i of listed) records[i].interactive = true;
      controls += pieces.length + listed.length;
    } else if (pieces.some(([, text]) => text)) {
      loose = true;
    }
    if (controls >= 2 && !loose) delete rec.interactive;
  }

  // The items of a list inside a control clickable by its cursor alone, when each is an item with words of its own
  // and the list holds nothing else ("Share via DM", ..., "Report": a post's menu, one handler on it all): each is a
  // control (the default model saw one element named with all six and could not choose "Report"). Record indexes,
  // or null when records[from] is no such list.
  const LIST_TAGS = new Set(["ul", "ol", "menu"]);
  function listItems(records, from, to) {
    const list = records[from];
    if (!LIST_TAGS.has(list.tag) || !list.visible) return null;
    const items = [];
    let open = -1; // the item whose descendants are being read, and whether words were found in it
    let worded = true;
    for (let i = from + 1; i < to; i++) {
      const r = records[i];
      if (r.parent === list.id) {
        if (!worded) return null;
        if (!r.visible) { open = -1; worded = true; continue; }
        if (r.tag !== "li") return null;
        open = i;
        worded = Boolean(r.text);
        items.push(i);
      } else if (open >= 0 && r.visible && r.text) {
        worded = true; // the item's words inside a wrapper of its own (<li><div>Bulgaria</div></li>)
      }
    }
    return worded && items.length >= 2 ? items : null;
  }

  // Some visible record in [from, to) holds words.
  function hasText(records, from, to) {
    for (let i = from; i < to; i++) if (records[i].visible && records[i].text) return true;
    return false;
  }

  // Rules that give a pointer cursor only under the mouse (".controls span:hover { cursor: pointer }": a row of
  // icon controls). Nothing hovers while a snapshot is taken, so getComputedStyle never shows that pointer: the
  // rules are read from the frame's stylesheets (those it may read) and their selectors, ":hover" left out, are
  // matched instead. A selector that would match everything alike ("*", "div:hover") says nothing and is left out.
  const MAX_HOVER_SELECTORS = 40;
  const MAX_RULES_READ = 20000;
  const BARE_TAG = /^(\*|[a-z][a-z0-9]*)$/i;
  function hoverPointerSelector() {
    const found = [];
    let read = 0;
    const visit = (rules, depth) => {
      for (const rule of rules) {
        if (found.length >= MAX_HOVER_SELECTORS || ++read > MAX_RULES_READ) return;
        if (rule.cssRules && !rule.selectorText) {  // @media, @supports, @layer: their rules
          if (depth < 4) visit(rule.cssRules, depth + 1);
          continue;
        }
        const sel = rule.selectorText;
        if (!sel || !sel.includes(":hover") || !rule.style || rule.style.cursor !== "pointer") continue;
        for (const part of sel.split(",")) {
          if (!part.includes(":hover")) continue;
          const bare = part.replace(/:hover/g, "").trim();
          if (!bare || BARE_TAG.test(bare)) continue;
          try { document.querySelector(bare); } catch (e) { continue; }  // not a selector without :hover
          found.push(bare);
        }
      }
    };
    for (const sheet of Array.from(document.styleSheets)) {
      let rules = null;
      try { rules = sheet.cssRules; } catch (e) { continue; }  // another origin's sheet
      if (rules) visit(rules, 0);
    }
    return found.length ? found.join(", ") : null;
  }

  // Returns {elements: JSON string, frames: [{frame, x, y}], count, timing_ms, ...page metadata}.
  // offset: where this frame's viewport sits in the top-level viewport (accumulated over nesting).
  // expectFrames: child frame ids whose announcement must arrive first, so they can be labelled.
  // options.passive: for passive learning (bg/passive.js): nothing the user entered — no field values at all,
  // no checked or selected state, no text of editable regions.
  async function snapshotFrame(offset = { x: 0, y: 0 }, expectFrames = [], options = {}) {
    const passive = options.passive === true;
    const waited = await walk.waitForFrames(expectFrames, 500);
    const t0 = performance.now();
    const ox = offset.x || 0;
    const oy = offset.y || 0;
    const out = [];
    const outEls = []; // out[i]'s element
    const childFrames = [];
    const cursorChecks = { n: 0 };
    const hoverPointer = hoverPointerSelector();
    const secretSelects = new Set(); // their options' selected flags would tell the value
    const secretCopies = []; // secret values, masked wherever else the page repeats them
    // Inside a secret field or region (a textarea's default text, a masked contenteditable), or an editable
    // region in a passive snapshot: no text is read.
    let hush = false;
    leftIsOffPage = !document.documentElement || getComputedStyle(document.documentElement).direction !== "rtl";
    // Inline text runs: an element that is not itself inline starts a run; its inline descendants' text joins
    // its own in document order. runPlain: the current run has text outside interactive inline elements;
    // runPieces: text pieces in it; runMembers: records of inline elements whose text it holds.
    let runPlain = false;
    let runPieces = 0;
    const runMembers = [];
    const hasText = (s) => /\S/.test(s);
    const SVG_NS = "http://www.w3.org/2000/svg";
    const STEP_GLYPHS = new Set(["+", "-", "−", "–", "＋", "▲", "▼", "▴", "▾", "˄", "˅"]);
    const isStepGlyph = (el) => el.childElementCount === 0 && STEP_GLYPHS.has((el.textContent || "").trim());
    // The width its text takes (a Range over its contents), for an inline-block set apart by a wider box.
    const WIDER_THAN_TEXT_PX = 2;
    const textWidth = (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return range.getBoundingClientRect().width;
    };
    // run_text is sent only when it says more than the element's own text; its members are marked in_run.
    const setRun = (rec, run, ownText, from) => {
      const joined = run.replace(/\s+/g, " ").trim();
      if (!joined || joined === ownText) return;
      rec.run_text = cap(joined, MAX_TEXT);
      for (let i = from; i < runMembers.length; i++) runMembers[i].in_run = true;
    };

    // The field is secret: the wire says so and whether it holds something, never what; its value is looked
    // for everywhere else in this frame's snapshot.
    const keepSecret = (rec, el, tag, filled) => {
      rec.secret = true;
      if (filled) rec.has_value = true;
      if (rec.attrs) for (const name of VALUE_ATTRS) delete rec.attrs[name];
      secretCopies.push(...secrets.copiesToMask(el, tag));
    };

    // pointerCtx: an ancestor is already interactive or shows a pointer cursor, so this element
    // inherits its cursor and is not a separate target: no need for getComputedStyle here.
    // rendered=false: an ancestor has no box (display:none), so nothing below can have one.
    // unseen=true: an ancestor renders where no person sees it (hiddenAway), and so does this subtree.
    // Returns, for an inline element, its text with its inline descendants' text in place (its share of
    // the enclosing run); nothing for any other element.
    const visit = (el, parentId, inShadow, pointerCtx, depth, rendered, unseen) => {
      if (walk.skipped(el) || depth > walk.MAX_DEPTH) return;
      const tag = el.localName;
      const id = walk.idOf(el);
      const rec = { id };
      if (parentId) rec.parent = parentId;
      rec.tag = tag;

      let interactive = INTERACTIVE_TAGS.has(tag) && !(tag === "input" && el.type === "hidden");
      if (el.hasAttributes()) {
        let attrs = null;
        // getAttributeNames() is several times cheaper than iterating el.attributes (no Attr objects).
        for (const name of el.getAttributeNames()) {
          if (KEPT_ATTRS.has(name) || name.startsWith("aria-")) {
            (attrs ??= {})[name] = attrValue(name, el.getAttribute(name));
          } else if (HANDLER_ATTRS.has(name)) {
            interactive = true;
          }
        }
        if (attrs) {
          rec.attrs = attrs;
          if (!interactive) {
            if (tag === "a" && attrs.href !== undefined) interactive = true;
            // An anchor with no href is a script's control (a calendar's "Prev" whose click a handler on the
            // calendar catches): no listener of its own, no pointer cursor. A named anchor ("#top") is not.
            else if (tag === "a" && attrs.name === undefined && (attrs.title !== undefined || attrs.class !== undefined)) interactive = true;
            else if (attrs.role && WIDGET_ROLES.has(attrs.role)) interactive = true;
            else if (attrs.tabindex !== undefined && parseInt(attrs.tabindex, 10) >= 0) interactive = true;
            else if (attrs.contenteditable !== undefined && attrs.contenteditable !== "false") interactive = true;
          }
          if (attrs.draggable === "true") {
            interactive = true;
            rec.drag = true;
          }
        }
      }
      if ((tag === "audio" || tag === "video") && el.controls) interactive = true;
      // A shape inside a walked svg (a pie menu's hub) is named by its own <title>, as a screen reader names it.
      if (el.namespaceURI === SVG_NS && tag !== "svg" && !(rec.attrs && rec.attrs.title)) {
        const title = el.querySelector(":scope > title");
        const said = title ? title.textContent.replace(/\s+/g, " ").trim() : "";
        if (said) (rec.attrs ??= {}).title = cap(said, MAX_TEXT);
      }

      const at = out.length;
      out.push(rec);
      outEls.push(el);

      // Layout reads are the bulk of the cost: skipped for whole subtrees that cannot render.
      const r = rendered ? el.getBoundingClientRect() : null;
      let visible = false;
      let childRendered = rendered;
      let childUnseen = unseen;
      if (r && (r.width > 0 || r.height > 0)) {
        rec.box = { x: round(r.left + ox), y: round(r.top + oy), w: round(r.width), h: round(r.height) };
        // A box can exist for visibility:hidden / opacity:0 content; checkVisibility says if it renders.
        visible = el.checkVisibility(RENDERS);
        if (visible && (unseen || hiddenAway(el, r))) {
          // Screen-reader text: it renders, a person does not see it; its text still names its link.
          visible = false;
          rec.sr_only = true;
          childUnseen = true;
        }
      } else if (r && !el.checkVisibility()) {
        // No box at all: display:none hides the subtree; display:contents only hides itself.
        childRendered = getComputedStyle(el).display === "contents";
      }

      // cursor:pointer only decides elements nothing else decided, that render, and that do not
      // merely inherit a pointer from an ancestor: this keeps getComputedStyle off most nodes.
      let childPointerCtx = pointerCtx || interactive;
      let byCursor = false;
      if (!interactive && visible && !pointerCtx && !STRUCTURAL_TAGS.has(tag)) {
        cursorChecks.n++;
        const style = getComputedStyle(el);
        if (style.cursor === "pointer" || (hoverPointer !== null && el.matches(hoverPointer))) {
          interactive = true;
          byCursor = true;
          childPointerCtx = true;
        } else if (RESIZE_CURSORS.has(style.cursor)) {
          // A resize handle: nothing to click, a drag that resizes the box it sits on (companion/act/resize.py).
          interactive = true;
          childPointerCtx = true;
          rec.resize = true;
        } else if (DRAG_CURSORS.has(style.cursor) || style.touchAction === "none") {
          // A drag cursor, or touch panning turned off (drag libraries do this to their items): a script drag handler.
          interactive = true;
          childPointerCtx = true;
          rec.drag = true;
        } else if (style.userSelect === "none" && isStepGlyph(el)) {
          // A lone "+" or "-" whose text cannot be selected: a quantity stepper a script listens to, drawn with
          // no pointer (a menu's "+" beside each dish: the default model saw no way to add one and sent the order).
          interactive = true;
        }
      }
      if (visible) rec.visible = true;
      if (interactive) rec.interactive = true;
      if (visible && isDialog(el, tag, rec.attrs) && blocksPage(el, r)) rec.modal = true;
      if (inShadow) rec.in_shadow = true;

      const target = targetUrl(el, tag);
      if (target !== null) {
        if (target.length > MAX_URL) {
          rec.url = target.slice(0, MAX_URL);
          rec.url_truncated = true;
        } else {
          rec.url = target;
        }
      }

      // The browser's form owner, not the enclosing <form>: form="id" ties a control to a form anywhere on the page.
      if (FORM_OWNED.has(tag) && el.form) rec.form = walk.idOf(el.form);

      let secretRegion = false;
      if (VALUE_TAGS.has(tag)) {
        // A secret never leaves the page, not even its length: only whether there is one.
        const value = el.value;
        if (secrets.isSecretField(el, tag)) {
          keepSecret(rec, el, tag, value !== "");
          if (tag === "select") secretSelects.add(el); // its options' texts are choices, no secret
          else secretRegion = true; // a textarea's text is its default value
        } else if (value && !passive) {
          rec.value = cap(value, MAX_VALUE);
        }
        if (!passive && tag === "input" && (el.type === "checkbox" || el.type === "radio") && el.checked) rec.checked = true;
      } else if (tag === "option") {
        if (!passive && el.selected && !secretSelects.has(el.closest("select"))) rec.selected = true;
      } else if (tag === "iframe" || tag === "frame") {
        const frameId = walk.frameIdOf(el);
        if (frameId !== undefined) {
          rec.child_frame = frameId;
          // Child content is laid out inside the border and padding: its origin is the content box.
          // (A frame in a display:none subtree has no rect yet: ask, it is all zeros.)
          const fr = r || el.getBoundingClientRect();
          const cs = getComputedStyle(el);
          childFrames.push({
            frame: frameId,
            x: fr.left + ox + el.clientLeft + parseFloat(cs.paddingLeft || "0"),
            y: fr.top + oy + el.clientTop + parseFloat(cs.paddingTop || "0"),
          });
        }
      } else if (rec.attrs && rec.attrs.contenteditable !== undefined && secrets.isEditingHost(el) && secrets.isSecretField(el, tag)) {
        keepSecret(rec, el, tag, /\S/.test(el.textContent));
        secretRegion = true;
      }

      if (walk.isLeaf(el)) {
        // An icon's drawing is not walked, but its <title> is its name (a tooltip, and what a screen reader says).
        if (tag === "svg" && !hush) {
          const title = el.querySelector(":scope > title");
          const said = title ? title.textContent.replace(/\s+/g, " ").trim() : "";
          if (said) rec.text = cap(said, MAX_TEXT);
        }
        return;
      }
      if (tag === "br") return visible ? " " : undefined;
      // Inline (display: inline, seen, with content): its text is part of the enclosing run. Horizontal
      // margin, padding or border set it apart from its neighbours as a space would. An inline-block holding
      // text alone reads the same way ("<span>j</span><span>y</span>", each letter skewed, reads "jy", not
      // "j y", which the default model typed), unless its box is wider than its text (a set width: a column).
      let inline = false;
      let before = "";
      let after = "";
      if (visible && el.firstChild !== null && PHRASING_TAGS.has(tag)) {
        const cs = getComputedStyle(el);
        const textBlock = cs.display === "inline-block" && el.children.length === 0;
        if (cs.display === "inline" || textBlock) {
          inline = true;
          if (parseFloat(cs.marginLeft) + parseFloat(cs.paddingLeft) + parseFloat(cs.borderLeftWidth) > 0) before = " ";
          if (parseFloat(cs.marginRight) + parseFloat(cs.paddingRight) + parseFloat(cs.borderRightWidth) > 0) after = " ";
          if (textBlock && !(before && after) && el.offsetWidth - textWidth(el) > WIDER_THAN_TEXT_PX) {
            before = " ";
            after = " ";
          }
        }
      }
      const outerPlain = runPlain;
      const outerPieces = runPieces;
      if (!inline) {
        runPlain = false;
        runPieces = 0;
      }
      const membersFrom = runMembers.length;
      // One pass over all child nodes: elements recurse, text nodes make up this element's own text and,
      // with inline children's shares, its run. Shadow content comes first (it is what renders); the host's
      // light children follow.
      let text = "";
      let run = "";
      let ownText = false;
      let innerText = false;
      const root = walk.shadowRootOf(el);
      if (root) walk.watchTypes(root); // a password field in here turned to text is remembered too
      const outerHush = hush;
      hush = hush || secretRegion || (passive && el.isContentEditable);
      // A container's children's record ranges, when it may hold controls of its own (splitControls).
      const kids = interactive && !OWN_ACTION_TAGS.has(tag) && !el.isContentEditable ? [] : null;
      for (let pass = root ? 0 : 1; pass < 2; pass++) {
        for (let c = pass === 0 ? root.firstChild : el.firstChild; c; c = c.nextSibling) {
          const type = c.nodeType;
          if (type === 1) {
            const from = out.length;
            const share = visit(c, id, pass === 0 || inShadow, childPointerCtx, depth + 1, childRendered, childUnseen);
            if (kids && out.length > from) kids.push([from, out.length]);
            if (share && run.length < MAX_TEXT * 2) {
              run += share;
              if (!innerText && hasText(share)) innerText = true;
            }
          } else if (type === 3 && !hush) {
            const v = c.nodeValue;
            if (text.length < MAX_TEXT * 2) text += v;
            if (run.length < MAX_TEXT * 2) run += v;
            if (hasText(v)) {
              ownText = true;
              runPieces++;
              runPlain = true;
            }
          }
        }
      }
      hush = outerHush;
      if (text) {
        text = text.replace(/\s+/g, " ").trim();
        if (text) rec.text = cap(text, MAX_TEXT);
      }
      if (kids && kids.length >= 2) splitControls(rec, kids, out, outEls, ownText, byCursor);
      if (rec.interactive && visible && !VALUE_TAGS.has(tag) && !textIn(out, at, out.length)) {
        const icon = drawnIcon(out, outEls, at, out.length);
        if (icon) rec.icon = icon;
        else if (out.length === at + 1) {
          const swatch = swatchColour(el, r);
          if (swatch) rec.swatch = swatch;
        }
      }
      if (inline) {
        if (interactive) {
          // A link's text is not the sentence's own: a run of links alone (a menu item) is no sentence.
          runPlain = outerPlain;
          // Its name reads in order: "Read <b>more</b> now".
          if (ownText && innerText) setRun(rec, run, text, membersFrom);
        }
        if (!ownText && !innerText) return undefined;
        runMembers.push(rec);
        return before + run + after;
      }
      const plain = runPlain;
      const pieces = runPieces;
      runPlain = outerPlain;
      runPieces = outerPieces;
      if (innerText && (interactive ? ownText : plain && pieces >= 2)) {
        setRun(rec, run, text, membersFrom);
      }
      runMembers.length = membersFrom;
      return undefined;
    };

    if (document.documentElement) visit(document.documentElement, 0, false, false, 0, true, false);
    const scrub = secrets.scrubber(secretCopies);
    let elements = JSON.stringify(out);
    if (scrub.needed(elements)) elements = JSON.stringify(out.map((rec) => scrubRecord(rec, scrub)));
    const de = document.documentElement;
    return {
      elements,
      frames: childFrames,
      count: out.length,
      cursor_checks: cursorChecks.n,
      url: scrub(location.href),
      title: scrub(document.title),
      viewport: { width: window.innerWidth, height: window.innerHeight },
      scroll: {
        x: window.scrollX,
        y: window.scrollY,
        width: de ? de.scrollWidth : 0,
        height: de ? de.scrollHeight : 0,
      },
      timing_ms: round(performance.now() - t0),
      frames_announced: waited,
    };
  }

  // Every string of a record with secret values and card numbers masked.
  function scrubRecord(rec, scrub) {
    for (const key of ["text", "run_text", "value", "url", "icon"]) if (rec[key] !== undefined) rec[key] = scrub(rec[key]);
    if (rec.attrs) for (const name in rec.attrs) rec.attrs[name] = scrub(rec.attrs[name]);
    return rec;
  }

  // The benchmark floor: the same traversal doing nothing but counting elements.
  function countOnly() {
    const t0 = performance.now();
    const count = walk.countElements();
    return { count, timing_ms: round(performance.now() - t0) };
  }

  wc.snapshot = { snapshotFrame, countOnly };
})();
