// Options page, LLM section: choose the backend and model of the companion's tasks, Check it, Save it.
// The companion does the work (companion/panel/llm_settings.py): it validates the spec and says why one is
// refused, runs `llm check` on it, and keeps a saved choice in its llm.toml. The worker relays
// (bg/llmsettings.js); this page only builds the spec string from the fields.
const $ = (id) => document.getElementById(id);
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

let choices = { presets: {}, embedded_models: [] }; // from the companion's llm_settings
let touched = false; // the person changed the form: a late llm_settings does not overwrite it
let generation = 0; // bumped by every edit: a check's answer for an older form is not shown

// chrome.runtime.sendMessage resolves to the companion's reply, or to { error } when the worker could not ask.
async function ask(request) {
  const reply = await chrome.runtime.sendMessage(request);
  if (!reply) throw new Error("the extension did not answer");
  if (!reply.type) throw new Error(reply.error || "the extension did not answer");
  return reply;
}

function result(text, { failed = false, data = {} } = {}) {
  const el = $("llm-result");
  el.textContent = text;
  el.classList.toggle("failed", failed);
  // data-link: the failure was the link to the companion, not the choice (gone once connected again).
  for (const key of ["ok", "seconds", "model", "link"]) el.removeAttribute(`data-${key}`);
  for (const [key, value] of Object.entries(data)) el.setAttribute(`data-${key}`, String(value));
}

// The spec string companion/llm/config.py parses (embedded[:model], preset[#model], openai:URL[#model]).
export function composeSpec() {
  const backend = $("llm-backend").value;
  if (backend === "embedded") {
    const model = $("llm-embedded-model").value;
    return model ? `embedded:${model}` : "embedded";
  }
  const model = $("llm-model").value.trim();
  const tail = model ? `#${model}` : "";
  if (backend === "openai") return `openai:${$("llm-url").value.trim()}${tail}`;
  return `${backend}${tail}`;
}

// The form showing `spec`; false when the page cannot show it (gguf:, replay:, lexical: command-line choices).
function fill(spec) {
  const split = (text) => {
    const at = text.indexOf("#");
    return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
  };
  if (spec === "embedded" || spec.startsWith("embedded:")) {
    $("llm-backend").value = "embedded";
    const model = spec.slice("embedded:".length);
    if (model) $("llm-embedded-model").value = model;
  } else if (spec.startsWith("openai:")) {
    const [url, model] = split(spec.slice("openai:".length));
    $("llm-backend").value = "openai";
    $("llm-url").value = url;
    $("llm-model").value = model;
  } else {
    const [name, model] = split(spec);
    if (!(name in choices.presets)) return false;
    $("llm-backend").value = name;
    $("llm-model").value = model;
  }
  return true;
}

function remoteHost(url) {
  try {
    const host = new URL(url).hostname;
    return host && !LOOPBACK.test(host) ? host : null;
  } catch (_) {
    return null; // not a URL yet: the companion says what is wrong with it on Check or Save
  }
}

// Shows the fields the chosen backend has, and the warning for a server on another machine.
function layout() {
  const backend = $("llm-backend").value;
  $("llm-embedded-row").hidden = backend !== "embedded";
  $("llm-url-row").hidden = backend !== "openai";
  $("llm-model-row").hidden = !backend || backend === "embedded";
  $("llm-key-row").hidden = !backend || backend === "embedded";
  for (const id of ["llm-check", "llm-save"]) $(id).disabled = !backend; // nothing chosen: nothing to check or save
  const presetUrl = choices.presets[backend];
  $("llm-preset-url").hidden = !presetUrl;
  $("llm-preset-url").textContent = presetUrl ? `The companion asks the server at ${presetUrl}.` : "";
  const host = backend === "openai" ? remoteHost($("llm-url").value.trim()) : null;
  $("llm-remote").hidden = !host;
  $("llm-remote").textContent = host
    ? `${host} is not this computer: the text of the pages your tasks read, and your tasks, will be sent to that host.`
    : "";
}

function showCurrent(state) {
  const model = state.model && !state.spec.includes(state.model) ? ` (model ${state.model})` : "";
  $("llm-current").textContent = state.spec ? `In use: ${state.spec}${model}` : "In use: none";
  if (state.error && !state.saved) $("llm-current").textContent += ` (${state.error})`;
  // The companion never sends the key back: only whether one is saved for the server in use, and its end.
  const hint = state.api_key_hint ? ` (ending in ${state.api_key_hint})` : "";
  $("llm-key-state").textContent = state.api_key_set ? `An API key is saved for the server in use${hint}.` : "";
}

// The key typed in the field, when there is one: otherwise the companion uses the one it saved for that server.
function withKey(request) {
  const key = $("llm-api-key").value.trim();
  return key && $("llm-backend").value !== "embedded" ? { ...request, api_key: key } : request;
}

async function load() {
  let state;
  try {
    state = await ask({ type: "llm_settings_get" });
  } catch (e) {
    $("llm-current").textContent = `In use: unknown (${e.message})`;
    return;
  }
  choices = { presets: state.presets || {}, embedded_models: state.embedded_models || [] };
  const select = $("llm-embedded-model");
  const chosen = select.value;
  select.replaceChildren(...choices.embedded_models.map((name, i) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = i === 0 ? `${name} (default)` : name;
    return option;
  }));
  if (chosen) select.value = chosen;
  showCurrent(state);
  if (!touched && state.spec && !fill(state.spec)) {
    // Not a choice of this page: no backend shows as chosen, rather than one that is not in use.
    $("llm-backend").value = "";
    $("llm-current").textContent += " — set when the companion was started; choose a backend here to replace it";
  }
  layout();
}

async function check() {
  const spec = composeSpec();
  const mine = generation;
  $("llm-check").disabled = true;
  result(`Checking ${spec}…`);
  try {
    const r = await ask(withKey({ type: "llm_check", spec }));
    if (mine !== generation) return; // the form changed while the check ran
    if (r.ok) {
      const n = r.n_ctx ? String(r.n_ctx) : "unknown";
      result(`answered in ${r.seconds.toFixed(2)} s (model ${r.model || "unknown"}, context ${n}, structured mode ${r.mode})`,
        { data: { ok: true, seconds: r.seconds, model: r.model } });
    } else {
      result(r.error, { failed: true, data: { ok: false } });
    }
  } catch (e) {
    if (mine === generation) result(`The check could not run: ${e.message}`, { failed: true, data: { ok: false, link: true } });
  } finally {
    $("llm-check").disabled = false;
  }
}

// A server is tried before it is saved: one that does not answer is not saved, and the page says why. The embedded
// model is not (a check loads it, which takes long and holds its memory); the companion starts it when a task needs it.
async function save() {
  const spec = composeSpec();
  const mine = generation;
  $("llm-save").disabled = true;
  try {
    if ($("llm-backend").value !== "embedded") {
      result(`Trying ${spec} before saving it…`);
      const tried = await ask(withKey({ type: "llm_check", spec }));
      if (mine !== generation) return; // the form changed meanwhile: that is not what was tried
      if (!tried.ok) {
        result(`Not saved: ${tried.error}`, { failed: true, data: { ok: false } });
        return;
      }
    }
    const state = await ask(withKey({ type: "llm_settings_set", spec }));
    if (state.error) {
      result(`Not saved: ${state.error}`, { failed: true });
      return;
    }
    $("llm-api-key").value = ""; // kept by the companion now, not in this page
    showCurrent(state);
    touched = false; // the form shows what is in use again
    result(`Saved: the companion's tasks now use ${state.spec}.`);
  } catch (e) {
    result(`Not saved: ${e.message}`, { failed: true, data: { link: true } });
  } finally {
    $("llm-save").disabled = false;
  }
}

function edited() {
  touched = true;
  generation += 1;
  result("");
  layout();
}

for (const id of ["llm-backend", "llm-embedded-model", "llm-url", "llm-model", "llm-api-key"]) {
  $(id).addEventListener("input", edited);
  $(id).addEventListener("change", edited);
}
$("llm-check").addEventListener("click", check);
$("llm-save").addEventListener("click", save);
// Reaching the companion (at start, or after pairing on this page) is when its choice can be read.
chrome.storage.onChanged.addListener((changes, area) => {
  const connection = area === "session" && changes.connection && changes.connection.newValue;
  if (!connection || connection.status !== "connected") return;
  if ($("llm-result").hasAttribute("data-link")) result(""); // the error it reported is over
  load();
});
layout();
load();
