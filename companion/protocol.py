"""The wire protocol between the extension and the companion: the one definition.

Every message is a JSON object with a `type` and an `id`. Replies echo the `id`
of the request they answer. `build.py` writes the JSON Schema of `Message` into
`shared_schema/protocol.schema.json`; the extension validates against that file,
and a test fails when the committed copy is stale.

Elements are addressed as (frame, id): `frame` is Chrome's frame id (0 for the
top frame), `id` is a per-document counter assigned by the content script and
stable across snapshots of the same document, so a diff is a set operation.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

PROTOCOL_VERSION = 1


class WireModel(BaseModel):
    # Unknown fields are an error: a typo in a message must not pass silently.
    model_config = ConfigDict(extra="forbid")


_FIELD_SETS: dict[frozenset[str], set[str]] = {}


def share_fields_set(model: BaseModel) -> BaseModel:
    """Give `model` the one fields-set object of its shape (which fields were given) instead of its own.

    pydantic keeps a set of the explicitly given field names in every instance: 200 to 2,300 bytes, a third
    of a snapshot element's memory (a 100k-element page: 95 MB of a 290 MB parse). Models made by the
    hundred thousand (snapshot elements and boxes, PageMem elements) share one per shape. What changes:
    `model_fields_set` (and dumps with exclude_unset, which nothing here uses) may name a field set on
    another instance of the same shape; values, equality, dumps and copies are unaffected."""
    own = model.__pydantic_fields_set__
    shared = _FIELD_SETS.setdefault(frozenset(own), own)
    if shared is not own:
        object.__setattr__(model, "__pydantic_fields_set__", shared)
    return model


class _SharedFieldsSet(WireModel):
    """Base of the wire models that come by the hundred thousand (see share_fields_set)."""

    @model_validator(mode="after")
    def _share_fields_set(self):
        return share_fields_set(self)


# --------------------------------------------------------------------------- snapshot


class Box(_SharedFieldsSet):
    """Bounding box in CSS pixels, in top-level viewport coordinates (iframe offsets applied)."""

    x: float
    y: float
    w: float
    h: float


class ElementRef(_SharedFieldsSet):
    frame: int = Field(0, description="Chrome frame id; 0 is the top frame")
    id: int = Field(description="element id, stable within one document")


class SnapshotElement(_SharedFieldsSet):
    """One DOM element. Text nodes are folded into their parent's `text`.

    Fields that are empty, false or null are omitted on the wire to keep it compact.
    """

    id: int
    parent: int | None = Field(None, description="id of the parent element in the same frame (shadow hosts are parents of their shadow content)")
    tag: str = Field(description="lower-case tag name")
    attrs: dict[str, str] = Field(default_factory=dict, description="only the attributes that matter for roles, names and selectors")
    text: str = Field("", description="the element's own direct text, whitespace-collapsed (an <svg>, whose drawing is "
                                      "not walked: the text of its <title>)")
    run_text: str | None = Field(None, description="its text with the text of its inline descendants (span, b, a, label, "
                                                   "... rendered display:inline) in place, so a sentence reads whole: 'Find "
                                                   "the email by Agustina and forward it'; sent only when that joins pieces "
                                                   "its own text lacks")
    in_run: bool = Field(False, description="an inline element whose text is part of an ancestor's run_text")
    value: str | None = Field(None, description="current value of inputs, textareas and selects; never for secret fields")
    secret: bool = Field(False, description="a field (input, textarea, select, contenteditable region) whose value or text "
                                            "never leaves the page, nor do copies of it elsewhere in the snapshot: ever "
                                            "secret in this document, a password, autocomplete cc-*/one-time-code/"
                                            "current-password/new-password, hidden, CSS-masked, named or labelled as a "
                                            "secret (password, PIN, one-time code, CVC, SSN, security answer, ... in "
                                            "several languages), or a box of a split code next to such a box "
                                            "(content/secrets.js)")
    has_value: bool = Field(False, description="for secret fields: a value is there (what it is is never sent)")
    url: str | None = Field(None, description="where the element navigates, resolved by the browser against its own "
                                              "document: a link's href, a form's action, a submit button's formaction")
    url_truncated: bool = Field(False, description="`url` was longer than the extension sends (a huge data: URL): it is cut "
                                                   "and must never be followed")
    form: int | None = Field(None, description="for a form-associated control (button, input, select, textarea, fieldset, "
                                               "output, object): the id, in this frame, of the form the browser submits it "
                                               "with (its `form` property, which honours a form= attribute naming a form "
                                               "anywhere in the document); absent when it has none")
    checked: bool | None = None
    selected: bool | None = Field(None, description="for <option>: currently selected")
    box: Box | None = None
    visible: bool = Field(False, description="it renders where a person can see it (has a box, not hidden by visibility, "
                                            "opacity or clipping, not placed off the page)")
    sr_only: bool = Field(False, description="it renders but no person sees it: clipped to at most 1 px (the sr-only "
                                             "pattern) or placed off the page; screen readers read it, so its text still "
                                             "names the link or button it is in")
    modal: bool = Field(False, description="for a rendered dialog (<dialog>, role=dialog/alertdialog, aria-modal=true): the page "
                                           "behind it is really inert (the browser's :modal, `inert` on the rest, or a "
                                           "full-viewport overlay taking every click around it); aria-modal alone is not enough")
    interactive: bool = False
    icon: str | None = Field(None, description="for an interactive element without text: the URL of the image its box or "
                                               "a box inside it draws by style (CSS content: url() or a background image), "
                                               "whose file name tells what the icon is")
    drag: bool = Field(False, description="a person would drag it: draggable=true, or the page made it a script drag "
                                          "handler's item (a move/grab cursor, or touch-action: none)")
    swatch: str | None = Field(None, description="for a small interactive element with nothing inside it and no icon: "
                                                  "the solid colour its box is filled with (#rrggbb), as a colour picker's "
                                                  "swatch shows")
    resize: bool = Field(False, description="a resize handle: the page draws it with a resize cursor (e-resize, "
                                            "col-resize...: jQuery UI's resizable, split panes); what it resizes is read "
                                            "from the boxes (companion/act/resize.py)")
    in_shadow: bool = Field(False, description="inside an open or closed shadow root")
    child_frame: int | None = Field(None, description="for iframe/frame elements: the frame id of the document they hold")


class Viewport(WireModel):
    width: float
    height: float


class Scroll(WireModel):
    x: float = 0
    y: float = 0
    width: float = Field(0, description="document scroll width")
    height: float = Field(0, description="document scroll height")


class FrameSnapshot(WireModel):
    frame: int
    parent_frame: int | None = None
    url: str
    elements: list[SnapshotElement]


class LeftOutFrame(WireModel):
    frame: int
    parent_frame: int | None = None
    reason: str = Field(description="why its content is not in the snapshot, e.g. 'did not answer within 8 s'")


class Snapshot(WireModel):
    url: str
    title: str
    viewport: Viewport
    scroll: Scroll
    frames: list[FrameSnapshot] = Field(description="top frame first, then descendants in document order")
    frames_left_out: list[LeftOutFrame] = Field(
        default_factory=list, description="frames the snapshot has no content of because they did not answer within "
        "its one overall deadline (a page's frames are read in parallel; a busy or slow frame does not hold up the "
        "rest); their own child frames are not known either")
    timing_ms: float | None = Field(None, description="in-page serialization time, summed over frames")


# --------------------------------------------------------------------------- actions


class Click(WireModel):
    kind: Literal["click"] = "click"
    target: ElementRef


class TypeText(WireModel):
    kind: Literal["type"] = "type"
    target: ElementRef
    text: str
    mode: Literal["replace", "append"] = "replace"


class Clear(WireModel):
    kind: Literal["clear"] = "clear"
    target: ElementRef


class SelectOption(WireModel):
    kind: Literal["select"] = "select"
    target: ElementRef
    value: str | None = None
    label: str | None = None


class SetChecked(WireModel):
    kind: Literal["check"] = "check"
    target: ElementRef
    checked: bool = True


class PressKey(WireModel):
    kind: Literal["press"] = "press"
    key: Literal["Enter", "Escape", "Tab", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Backspace", "Space"]
    target: ElementRef | None = Field(None, description="element to focus first; the focused element otherwise")


class Hover(WireModel):
    kind: Literal["hover"] = "hover"
    target: ElementRef


class ScrollBy(WireModel):
    kind: Literal["scroll"] = "scroll"
    target: ElementRef | None = Field(None, description="scroll this element; the page otherwise")
    dx: float = 0
    dy: float = 0


class Focus(WireModel):
    kind: Literal["focus"] = "focus"
    target: ElementRef


class Navigate(WireModel):
    kind: Literal["navigate"] = "navigate"
    url: str


class Back(WireModel):
    kind: Literal["back"] = "back"


class Forward(WireModel):
    kind: Literal["forward"] = "forward"


class Reload(WireModel):
    kind: Literal["reload"] = "reload"


class UploadFile(WireModel):
    kind: Literal["upload"] = "upload"
    target: ElementRef
    name: str
    mime: str = "application/octet-stream"
    content_b64: str = Field(description="file content, base64")


class Drag(WireModel):
    """A press on the target's visible point, pointer moves along the path, a release: the mouse sequence that
    script-built drag handlers (jQuery UI draggable, droppable, sortable) follow, and HTML5 drag and drop
    (dragstart ... drop, dragend, one DataTransfer) when the pressed element is draggable=true."""

    kind: Literal["drag"] = "drag"
    target: ElementRef
    to: ElementRef | None = Field(None, description="release over this element's centre; else at the start + (dx, dy)")
    dx: float = 0
    dy: float = 0
    steps: int = Field(8, ge=1, le=50, description="pointer moves between press and release")


class SelectText(WireModel):
    """Select `text` inside the target as a person's press-drag-release over it would (a Range in the document's
    selection, mousedown at its start, mousemove, mouseup at its end)."""

    kind: Literal["select_text"] = "select_text"
    target: ElementRef
    text: str | None = Field(None, min_length=1, max_length=2000, description="found in the target's text, "
                             "case-insensitively; None: the whole of its text")


class SetSlider(WireModel):
    """Move a slider to `value`: a native <input type=range> is set, a handle slider is dragged along its track
    until the value it shows (aria-valuenow, or a number shown beside it that moves with it) is `value`."""

    kind: Literal["slider"] = "slider"
    target: ElementRef = Field(description="the range input, the slider's handle or its track")
    value: float


Action = Annotated[
    Union[Click, TypeText, Clear, SelectOption, SetChecked, PressKey, Hover, ScrollBy, Focus, Navigate, Back, Forward, Reload, UploadFile,
          Drag, SelectText, SetSlider],
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------------- pairing (mutual authentication)

# Each side proves it holds the pairing token without sending it: a proof is
# base64url(HMAC-SHA256(token, PAIRING_LABEL | role | port | nonce | nonce)), no padding, where
# role is "companion" (over client_nonce|server_nonce) or "extension" (over server_nonce|client_nonce),
# and port is the TCP port the extension dialled and the companion listens on (a relay on another port
# cannot pass a real companion's proof on). Nonces are 32 random bytes, base64url without padding.
PAIRING_LABEL = "webchallenger-pairing-v1"
_B64_32 = r"^[A-Za-z0-9_-]{43}$"  # 32 bytes, base64url, no padding


class AuthChallenge(WireModel):
    """Extension -> companion, the first message on a new socket: a fresh nonce the companion must prove
    the token over. Until the companion's AuthResponse checks, the extension sends nothing else and
    handles no message."""

    type: Literal["auth_challenge"] = "auth_challenge"
    id: str
    client_nonce: str = Field(pattern=_B64_32)


class AuthResponse(WireModel):
    """Companion -> extension, answers AuthChallenge (echoing its id): the companion's own nonce and its
    proof, HMAC over "companion", the port, client_nonce and server_nonce."""

    type: Literal["auth_response"] = "auth_response"
    id: str
    server_nonce: str = Field(pattern=_B64_32)
    proof: str = Field(pattern=_B64_32)


class AuthProof(WireModel):
    """Extension -> companion, after it verified the AuthResponse (echoing its id): the extension's proof,
    HMAC over "extension", the port, server_nonce and client_nonce. The companion accepts no other message
    (Hello included) before this one checks."""

    type: Literal["auth_proof"] = "auth_proof"
    id: str
    proof: str = Field(pattern=_B64_32)


# --------------------------------------------------------------------------- messages


class Hello(WireModel):
    """Extension -> companion, first message after the pairing check (AuthChallenge, AuthResponse, AuthProof)."""

    type: Literal["hello"] = "hello"
    id: str
    protocol_version: int
    extension_version: str
    boot_id: str = Field(description="random per service-worker start; a new value means the worker restarted")
    user_agent: str = ""


class HelloAck(WireModel):
    type: Literal["hello_ack"] = "hello_ack"
    id: str
    protocol_version: int
    session_id: str


class Heartbeat(WireModel):
    """Either direction, every 20 s; application messages keep the MV3 worker alive."""

    type: Literal["heartbeat"] = "heartbeat"
    id: str
    sent_at: float


class SnapshotRequest(WireModel):
    type: Literal["snapshot"] = "snapshot"
    id: str
    tab_id: int | None = Field(None, description="None: the active tab of the last focused window")


class SnapshotResult(WireModel):
    type: Literal["snapshot_result"] = "snapshot_result"
    id: str
    tab_id: int
    snapshot: Snapshot


class ActionCommand(WireModel):
    type: Literal["action"] = "action"
    id: str
    tab_id: int | None = None
    action: Action
    outline_ms: int = Field(0, ge=0, le=2000, description="outline the action's target on the page for this long before "
                            "acting (a task the user watches, so they see what is about to be acted on); 0: act at once")


class ActionResult(WireModel):
    type: Literal["action_result"] = "action_result"
    id: str
    tab_id: int
    ok: bool
    error: str | None = Field(None, description="human-readable, e.g. 'element 812 is no longer on the page'")
    note: str | None = Field(None, description="done, but worth knowing, e.g. the element was covered by another one "
                             "and the click was sent to it directly")
    url_before: str = ""
    url_after: str = ""
    url_changed: bool = False


class TabInfo(WireModel):
    tab_id: int
    url: str
    title: str = ""
    active: bool = False


class ListTabs(WireModel):
    type: Literal["list_tabs"] = "list_tabs"
    id: str


class TabsResult(WireModel):
    type: Literal["tabs_result"] = "tabs_result"
    id: str
    tabs: list[TabInfo]


class OpenTab(WireModel):
    type: Literal["open_tab"] = "open_tab"
    id: str
    url: str
    active: bool = True


class OpenTabResult(WireModel):
    type: Literal["open_tab_result"] = "open_tab_result"
    id: str
    tab: TabInfo


class ActivateTab(WireModel):
    """Companion -> extension: show this tab in the user's browser (make it the active tab of its window and
    focus that window). Requests keep naming their tab_id; this is what the user sees."""

    type: Literal["activate_tab"] = "activate_tab"
    id: str
    tab_id: int


class ActivateTabResult(WireModel):
    type: Literal["activate_tab_result"] = "activate_tab_result"
    id: str
    tab: TabInfo


class ReadClipboard(WireModel):
    """Companion -> extension: the text the page in `tab_id` last copied (or tried to), e.g. after clicking a
    copy button: from its copy events (execCommand('copy'), clipboardData.setData) and its
    navigator.clipboard.writeText calls, seen from inside the page. The system clipboard itself is not read.
    Never the content of a password field."""

    type: Literal["read_clipboard"] = "read_clipboard"
    id: str
    tab_id: int | None = None
    since: float | None = Field(None, description="only a copy at or after this time (ms since the epoch, the page's clock)")


class ClipboardResult(WireModel):
    type: Literal["clipboard_result"] = "clipboard_result"
    id: str
    tab_id: int
    text: str | None = Field(None, description="None: nothing copied could be read")
    source: Literal["copy_event", "write_text", "none"] = "none"
    copied_at: float | None = Field(None, description="when the page copied it (ms since the epoch)")
    reached_clipboard: bool | None = Field(
        None, description="true: the browser put it on the system clipboard; false: the browser refused the page's "
                          "copy (the agent's click carries no user gesture) and this is the text the page tried to copy")


class TabEvent(WireModel):
    """Extension -> companion, unsolicited. `id` is a fresh id."""

    type: Literal["tab_event"] = "tab_event"
    id: str
    tab_id: int
    event: Literal["created", "navigated", "loaded", "activated", "closed"]
    url: str = ""


class BenchRequest(WireModel):
    """Companion -> extension, benchmarks only: time the in-page serializer of the top frame against
    a bare walk of the same DOM that only counts elements (the floor), `runs` times each."""

    type: Literal["bench"] = "bench"
    id: str
    tab_id: int | None = None
    runs: int = Field(5, ge=1, le=50)


class BenchResult(WireModel):
    type: Literal["bench_result"] = "bench_result"
    id: str
    tab_id: int
    runs: int
    count: int = Field(description="elements serialized in the top frame")
    json_chars: int = Field(description="length of the top frame's serialized element list")
    snapshot_ms: list[float] = Field(description="in-page serialization time of each run")
    walk_ms: list[float] = Field(description="in-page count-only walk time of each run (the floor)")


# --------------------------------------------------------------------------- passive learning (while the user browses)

LearningPolicyName = Literal["allow", "block", "ask"]


class PassiveMode(WireModel):
    """Companion -> extension, after hello_ack and whenever it changes: may the extension report what the user
    browses (page_visited, user_clicked)? Off until a companion turns it on (`webchallenger serve` does). Even
    on, the extension reports only tabs no task drives, never incognito ones, and only sites the companion
    says are allowed (site_policy)."""

    type: Literal["passive_mode"] = "passive_mode"
    id: str
    enabled: bool
    settle_ms: int = Field(1500, ge=100, le=10_000, description="a page has settled after this long without DOM changes")
    min_interval_ms: int = Field(5000, ge=0, le=600_000, description="at most one page_visited per tab per this interval")


class PageVisited(WireModel):
    """Extension -> companion, unsolicited: a page the user brought up, once it settled. The snapshot is a passive
    one: no field values at all (typed or not), no checked or selected state, no text of editable regions, and
    secrets left out as in every snapshot."""

    type: Literal["page_visited"] = "page_visited"
    id: str
    tab_id: int
    snapshot: Snapshot
    form_submission: bool = Field(False, description="the page answers a form the user submitted: the query of its URL "
                                                     "holds what they typed (the companion keeps no query values)")


class UserClicked(WireModel):
    """Extension -> companion, unsolicited: the user's own click (a trusted event) in a tab page_visited reports.
    `before` names the message whose snapshot showed the page when it was clicked; the click's outcome is either
    `navigated_to` (the tab left the document) or `after` (the same document once it settled again)."""

    type: Literal["user_clicked"] = "user_clicked"
    id: str
    tab_id: int
    target: ElementRef = Field(description="the clicked element (its innermost element in the frame it is in)")
    path: list[int] = Field(default_factory=list, max_length=32,
                            description="ids of the clicked element and its ancestors in the same frame, innermost first")
    before: str = Field(description="id of the page_visited or user_clicked whose snapshot is the page before the click")
    navigated_to: str | None = Field(None, description="the URL the click took the tab to")
    after: Snapshot | None = Field(None, description="the tab once the click settled, when it stayed on the same document")


class SitePolicyGet(WireModel):
    """Extension -> companion: the learning policy of the site of `url` (answered by SitePolicy, echoing the id)."""

    type: Literal["site_policy_get"] = "site_policy_get"
    id: str
    url: str = Field(max_length=8192)
    tab_id: int | None = Field(None, description="the tab showing `url`: the answer says whether learning in it waits")


class SitePolicySet(WireModel):
    """Extension -> companion, from the side panel's switch only: set the site's policy (answered by SitePolicy)."""

    type: Literal["site_policy_set"] = "site_policy_set"
    id: str
    url: str = Field(max_length=8192)
    policy: LearningPolicyName


class SitePolicy(WireModel):
    """Companion -> extension: answers site_policy_get / site_policy_set (echoing the id)."""

    type: Literal["site_policy"] = "site_policy"
    id: str
    site: str = Field(description="the site key the policy is kept under; empty: the URL is no web site (never learned)")
    policy: LearningPolicyName
    passive: bool = Field(False, description="this companion learns while the user browses")
    paused: Literal["", "task", "after_task"] = Field(
        "", description="learning in the asked tab waits: a task drives it, or drove it a moment ago (its pages are "
                        "the agent's, not the user's browsing)")
    resumes_in_s: float = Field(0.0, ge=0, description="after_task: seconds until learning in the tab resumes")


# --------------------------------------------------------------------------- task UI (side panel <-> companion)


class PromptUsage(WireModel):
    """One prompt's share of a task's LLM use."""

    calls: int = 0
    new_tokens: int = 0  # prompt tokens the server read anew (not from its cache): on a CPU, the cost


class TaskUsage(WireModel):
    """LLM accounting of one task so far."""

    calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0  # of prompt_tokens, the ones the server reused from its cache (KV cache of a shared prefix)
    completion_tokens: int = 0
    llm_seconds: float = 0.0
    fallbacks: int = 0  # calls with no valid answer that a deterministic stand-in answered (llm/fallback.py)
    values_dropped: int = 0  # values a model stated that no page read supports, left out (observe/grounding.py)
    by_prompt: dict[str, PromptUsage] = Field(default_factory=dict, description="per prompt name (prompts/*.j2)")


class TaskEventData(WireModel):
    """One thing that happened in a task, in order (`seq`). The UI shows `text`; the other fields are the parts."""

    seq: int = Field(ge=0)
    kind: Literal["started", "step", "observation", "action", "note", "confirm", "answer", "error", "finished", "paused",
                  "resumed"]
    step: int | None = None
    text: str = ""
    url: str | None = None
    page: str | None = None
    reason: str | None = None
    actions: list[str] | None = None
    answer: str | None = None
    status: Literal["done", "stopped", "failed", "out_of_steps", "looping"] | None = Field(
        None, description="on `finished`: how the task ended")
    usage: TaskUsage | None = Field(None, description="on `finished`: the task's LLM use; on `step`: its use so far, "
                                                      "before the step's page is read")


class PreviousTask(WireModel):
    """The task a follow-up continues from, as the side panel showed it (its answer came from web pages: page data)."""

    task: str = Field(min_length=1, max_length=4000)
    answer: str = Field("", max_length=4000, description="its answer, or what it found before it stopped")


class StartTask(WireModel):
    """Extension -> companion: run a task in `tab_id` (the active tab when None). Its `id` becomes the task id (and
    names its checkpoint: `resume` goes on with that task)."""

    type: Literal["start_task"] = "start_task"
    id: str
    task: str = Field(min_length=1, max_length=4000)
    tab_id: int | None = None
    start_url: str | None = None
    confirm: bool = Field(True, description="ask before irreversible actions")
    max_steps: int = Field(30, ge=1, le=200)
    previous: PreviousTask | None = Field(None, description="a follow-up: the task before it and its result")
    resume: bool = Field(False, description="go on from the checkpoint of the stopped or failed task `id` (its "
                                            "history and step count), on the page it had reached in `tab_id`")


class StopTask(WireModel):
    """Extension -> companion: cancel the task (it stops at once; a `finished` event with status stopped follows)."""

    type: Literal["stop_task"] = "stop_task"
    id: str
    task_id: str


class PauseTask(WireModel):
    """Extension -> companion: pause the task before its next step (the step under way finishes), or resume it.
    A `paused` event follows once it waits, a `resumed` event when it goes on."""

    type: Literal["pause_task"] = "pause_task"
    id: str
    task_id: str
    paused: bool


class TaskUpdate(WireModel):
    """Companion -> extension, unsolicited: one task event."""

    type: Literal["task_update"] = "task_update"
    id: str
    task_id: str
    event: TaskEventData


class ConfirmRequest(WireModel):
    """Companion -> extension: the task waits until the user approves or declines this action."""

    type: Literal["confirm_request"] = "confirm_request"
    id: str
    task_id: str
    description: str


class ConfirmAnswer(WireModel):
    """Extension -> companion: the user's answer; `id` echoes the ConfirmRequest's id."""

    type: Literal["confirm_answer"] = "confirm_answer"
    id: str
    approved: bool


class SiteInfoGet(WireModel):
    """Extension -> companion, from the side panel: what the companion knows of the site of `url` (answered by SiteInfo)."""

    type: Literal["site_info_get"] = "site_info_get"
    id: str
    url: str = Field(max_length=8192)


class SiteForget(WireModel):
    """Extension -> companion, from the side panel only: delete the memory of the site of `url`, as
    `webchallenger memory rm` does (its learning choice stays). Answered by SiteInfo."""

    type: Literal["site_forget"] = "site_forget"
    id: str
    url: str = Field(max_length=8192)


class SiteInfo(WireModel):
    """Companion -> extension: answers site_info_get / site_forget (echoing the id)."""

    type: Literal["site_info"] = "site_info"
    id: str
    site: str = Field(description="the site key its memory is kept under; empty: the URL is no web site")
    pages: int = 0
    templates: int = 0
    dropdowns: int = 0
    bookmarks: int = 0
    forgotten: bool = Field(False, description="site_forget removed a memory file")
    error: str = Field("", description="the memory could not be read or removed: why (the file is left as it was)")


class CompanionStatusGet(WireModel):
    """Extension -> companion: which LLM the companion's tasks use (answered by CompanionStatus)."""

    type: Literal["companion_status_get"] = "companion_status_get"
    id: str


class CompanionStatus(WireModel):
    """Companion -> extension: answers companion_status_get (echoing the id)."""

    type: Literal["companion_status"] = "companion_status"
    id: str
    backend: str = Field(description="the LLM backend: embedded, server, replay, ...")
    model: str = Field(description="the model in use, or the backend's spec when it names none yet")
    task_running: bool = False


# --------------------------------------------------------------------------- LLM settings (the options page)
# companion/panel/llm_settings.py answers these. Only embedded[:model], the presets [#model] and openai:URL[#model]
# may be chosen from the extension; the companion validates the spec (companion/llm/config.py parse_spec).


class LLMSettingsGet(WireModel):
    """Extension -> companion: the LLM choice in use and what may be chosen (answered by LLMSettingsState)."""

    type: Literal["llm_settings_get"] = "llm_settings_get"
    id: str


class LLMSettingsSet(WireModel):
    """Extension -> companion: use this LLM spec for side-panel tasks and keep it in llm.toml (answered by
    LLMSettingsState; a refused spec changes nothing and the answer's error says why)."""

    type: Literal["llm_settings_set"] = "llm_settings_set"
    id: str
    spec: str = Field(max_length=2000)
    api_key: str | None = Field(None, max_length=500, description=(
        "the key of the spec's server (a hosted OpenAI-compatible one), kept by the companion 0600 for that URL "
        "and never sent back; null keeps the saved key, '' removes it"))


class LLMSettingsState(WireModel):
    """Companion -> extension: answers llm_settings_get and llm_settings_set (echoing the id)."""

    type: Literal["llm_settings"] = "llm_settings"
    id: str
    spec: str = Field(description="the spec of the LLM the side panel's tasks use ('' when none is usable)")
    model: str = Field("", description="its model, when known")
    saved: bool = Field(False, description="llm_settings_set: the spec was written to llm.toml and is in use")
    presets: dict[str, str] = Field(default_factory=dict, description="preset name -> its default URL")
    embedded_models: list[str] = Field(default_factory=list, description="the embedded catalog, the default first")
    api_key_set: bool = Field(False, description="an API key is saved for the server in use")
    api_key_hint: str = Field("", description="its last 4 characters (none for a short key); the key itself never")
    error: str = Field("", description="why the spec was refused, or the configuration cannot be read")


class LLMCheck(WireModel):
    """Extension -> companion: run `llm check` on this spec (not saved) and answer with LLMCheckResult."""

    type: Literal["llm_check"] = "llm_check"
    id: str
    spec: str = Field(max_length=2000)
    api_key: str | None = Field(None, max_length=500, description=(
        "the key to try with the spec's server, not kept; null or '': the key saved for that URL"))


class LLMCheckResult(WireModel):
    """Companion -> extension: the check's outcome (echoing the id). ok: one choice answered in `seconds`."""

    type: Literal["llm_check_result"] = "llm_check_result"
    id: str
    ok: bool
    spec: str
    backend: str = ""
    base_url: str = ""
    model: str = ""
    n_ctx: int | None = None
    mode: str = Field("", description="the structured-output mode the backend took")
    seconds: float = Field(0.0, description="the answer time of the one timed choice")
    ready_s: float = Field(0.0, description="how long the backend took to be ready (a model load, a model list)")
    error: str = ""


# --------------------------------------------------------------------------- seeing what the agent sees (section outlines)

OutlineKind = Literal["normal", "list", "list_item", "modal", "form"]  # companion/pagemem/model.py SectionKind


class SectionOutline(WireModel):
    """One PageMem section as it is drawn on the page: its box and what its label says."""

    id: str = Field(max_length=40, description="the section id, 's3'")
    kind: OutlineKind
    box: Box = Field(description="the section's box in the snapshot it was divided from (top-level viewport coordinates "
                                 "at that snapshot's scroll)")
    purpose: str | None = Field(None, max_length=200, description="what the section is for, when the site's memory knows it")
    label: str = Field("", max_length=200, description="what the outline says after id and kind: the purpose, else the "
                                                       "section's first line of content")
    root: ElementRef | None = Field(None, description="the section's first root element: an outline whose section is "
                                                      "fixed to the window (a dialog, a fixed header) stays put as the page scrolls")


class DrawSections(WireModel):
    """Companion -> extension: outline these sections on the page in `tab_id`, replacing the outlines there (an empty
    list clears them). Drawn in a closed shadow root on a fixed, pointer-events:none host that snapshots skip: the
    page's layout does not change and its scripts cannot read the outlines. Answered by DrawSectionsResult."""

    type: Literal["draw_sections"] = "draw_sections"
    id: str
    tab_id: int | None = None
    sections: list[SectionOutline] = Field(default_factory=list, max_length=5000)
    scroll_x: float = Field(0, description="the page's scroll when the boxes were measured (Snapshot.scroll): the "
                                           "outlines move with the page as it scrolls")
    scroll_y: float = 0


class DrawSectionsResult(WireModel):
    type: Literal["draw_sections_result"] = "draw_sections_result"
    id: str
    tab_id: int
    drawn: int = Field(description="outlines now on the page")


class SectionsRequest(WireModel):
    """Extension -> companion, from the side panel's "Show sections": divide the page in `tab_id` as the agent does
    (a snapshot, DividePage) and outline its sections there (draw_sections). Answered by SectionsShown, echoing
    the id, or by an ErrorMessage."""

    type: Literal["sections_request"] = "sections_request"
    id: str
    tab_id: int


class SectionsShown(WireModel):
    """Companion -> extension: answers sections_request once the outlines are drawn."""

    type: Literal["sections_shown"] = "sections_shown"
    id: str
    tab_id: int
    url: str
    count: int = Field(description="sections outlined")
    template_id: str = ""


class ErrorMessage(WireModel):
    """Either direction. Answers a malformed or unknown request (echoing its id when it had one)."""

    type: Literal["error"] = "error"
    id: str = ""
    code: Literal["malformed", "unknown_type", "unsupported_version", "no_tab", "timeout", "internal", "unauthorized", "refused",
                  "too_large"]
    message: str


# Chrome native messaging (companion/native/): the extension and the native host, not the WebSocket. The host
# answers only this extension (Chrome's allowed_origins, checked again by the host).
class NativePair(WireModel):
    """Extension -> native host: the running companion's port and the pairing token, starting one if asked."""

    type: Literal["native_pair"] = "native_pair"
    start: bool = Field(default=False, description="start a companion when none is running")
    port: int = Field(default=0, ge=0, le=65535, description="the port to start one on (0: the default)")


class NativePairAnswer(WireModel):
    """Native host -> extension. Either port and token, or error (what the person should do)."""

    type: Literal["native_pair_answer"] = "native_pair_answer"
    port: int = 0
    token: str = ""
    started: bool = Field(default=False, description="the host started this companion")
    error: str = ""


Message = Annotated[
    Union[
        AuthChallenge, AuthResponse, AuthProof, Hello, HelloAck, Heartbeat, SnapshotRequest, SnapshotResult, ActionCommand, ActionResult,
        ListTabs, TabsResult, OpenTab, OpenTabResult, TabEvent, ErrorMessage, BenchRequest, BenchResult,
        ActivateTab, ActivateTabResult, ReadClipboard, ClipboardResult, StartTask, StopTask, TaskUpdate, ConfirmRequest, ConfirmAnswer,
        PassiveMode, PageVisited, UserClicked, SitePolicyGet, SitePolicySet, SitePolicy,
        PauseTask, SiteInfoGet, SiteForget, SiteInfo, CompanionStatusGet, CompanionStatus,
        LLMSettingsGet, LLMSettingsSet, LLMSettingsState, LLMCheck, LLMCheckResult,
        DrawSections, DrawSectionsResult, SectionsRequest, SectionsShown,
    ],
    Field(discriminator="type"),
]

MESSAGE_ADAPTER: TypeAdapter[Message] = TypeAdapter(Message)


def parse_message(raw: str | bytes) -> Message:
    """Parse and validate one wire message; raises pydantic.ValidationError."""
    return MESSAGE_ADAPTER.validate_json(raw)


def dump_message(message: WireModel) -> str:
    """Serialize compactly: null fields are omitted, as the extension does."""
    return message.model_dump_json(exclude_none=True)


def json_schema() -> dict:
    return MESSAGE_ADAPTER.json_schema()
