// Passive learning in the page (bg/passive.js injects this only into tabs whose site the user allowed):
// the user's own clicks, and when the page has settled.
// Runs in the ISOLATED world after walk.js: the page cannot see the listener, and clicks are told by the
// element ids the snapshot uses (walk.idOf), never by what the page shows. Only trusted events count: a
// click the page scripts itself (element.click(), dispatchEvent) is not the user's.
(() => {
  const wc = (globalThis.__webchallenger ??= {});
  if (wc.passive) return;
  const walk = wc.walk;
  const MAX_PATH = 32; // protocol.UserClicked.path

  // The clicked element and its ancestors in this frame, innermost first (a shadow root's host counts as
  // the parent of its content, as in the snapshot).
  function pathOf(target) {
    const path = [];
    let el = target && target.nodeType === 1 ? target : target && target.parentElement;
    while (el && path.length < MAX_PATH) {
      path.push(walk.idOf(el));
      el = el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
    }
    return path;
  }

  // Capturing, on the window: seen before any page handler can stop the event or change the page.
  window.addEventListener("click", (event) => {
    if (!event.isTrusted) return;
    const path = pathOf(event.composedPath()[0] || event.target);
    if (!path.length) return;
    chrome.runtime.sendMessage({ type: "passive_click", path, url: location.href }).catch(() => {});
  }, { capture: true, passive: true });

  // Resolves once the document is loaded and its DOM went `quietMs` without a change (or after `maxMs`):
  // a page that renders after load (a framework, a late list) is read as the user sees it.
  function settled(quietMs, maxMs) {
    return new Promise((resolve) => {
      const started = performance.now();
      let timer = null;
      let observer = null;
      const finish = (why) => {
        clearTimeout(timer);
        clearTimeout(cap);
        if (observer) observer.disconnect();
        resolve({ settled: why, waited_ms: Math.round(performance.now() - started) });
      };
      const cap = setTimeout(() => finish("max"), maxMs);
      const quiet = () => {
        clearTimeout(timer);
        timer = setTimeout(() => finish("quiet"), quietMs);
      };
      const watch = () => {
        observer = new MutationObserver(quiet);
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        quiet();
      };
      if (document.readyState === "complete") watch();
      else window.addEventListener("load", watch, { once: true });
    });
  }

  wc.passive = { settled };
})();
