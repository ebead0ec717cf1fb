"""Pure logic without a browser: the rule pre-filter, candidate gathering against the scripted LLM, the
ElementAction decision tree, IsForm, enclosing forms, action strings and the change merge.

PageMems come from divide_page over snapshots built from HTML (tests/support/htmlsnap.py)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.act import AgentContext, Candidate, gather_candidates
from companion.act import action_strings as say
from companion.act.candidates import END_TASK_LABEL, UNSELECTED_SECTIONS, packed
from companion.act.net_change import merge_updates
from companion.act.elements import irreversible_reason, is_form_cluster
from companion.act.prefilter import domain_allowed, prefilter, usable_elements
from companion.act.routing import element_route
from companion.observe import Observation
from companion.pagemem.divide import divide_page
from companion.pagemem.form_membership import FormMembership
from companion.pagemem.model import Bookmark
from companion.pagemem.update import update_page_mem
from companion.protocol import TabInfo
from tests.support.htmlsnap import ids_of, snapshot_from_html

URL = "http://127.0.0.1:8000/page"
NAV = """<nav><a href="/page">Home</a><a href="#top">Top</a><a href="/other">Other</a><a href="tel:123">Call us</a>
<a href="mailto:a@b.c">Mail us</a><a href="javascript:window.print()">Printer</a><button>Print</button>
<a href="https://partner.example/x">Partner</a><button disabled>Off</button></nav>
<form><input type="radio" name="s" checked aria-label="Small"><input type="radio" name="s" aria-label="Large"></form>"""


def page(body: str, url: str = URL):
    return divide_page(snapshot_from_html(f"<html><body>{body}</body></html>", url=url))


def names(elements) -> list[str]:
    return sorted(e.name for e in elements)


def ctx_for(pagemem, **fields) -> AgentContext:
    # No browser: gathering candidates and routing read only the PageMem.
    return AgentContext(session=None, task=fields.pop("task", "Find the other page"), files_dir=Path("/nonexistent"),
                        pagemem=pagemem, **fields)


def obs(selected, unselected, summary="A page with links", extractions=None) -> Observation:
    return Observation(url=URL, page_title="page", summary=summary, selected=selected, unselected=unselected,
                       extractions=extractions or {})


# ---------------------------------------------------------------- pre-filter


def test_prefilter_removes_no_ops_and_dead_links():
    pm = page(NAV)
    kept = usable_elements(list(pm.all_elements()), URL)
    # Gone: current page (Home, #Top), tel, mailto, javascript:, Print, disabled, the checked radio.
    assert names(kept) == ["Large", "Other", "Partner"]


def test_a_lists_all_link_to_its_empty_query_is_the_current_page_unless_the_list_is_filtered():
    facets = "<aside><a href='?'>All</a><a href='?status=paid'>Paid</a></aside>"
    assert names(usable_elements(list(page(facets).all_elements()), URL)) == ["Paid"]
    filtered = URL + "?status=paid"
    assert names(usable_elements(list(page(facets, url=filtered).all_elements()), filtered)) == ["All"]


def test_off_domain_links_go_only_when_domains_are_restricted():
    pm = page(NAV)
    assert "Partner" in names(usable_elements(list(pm.all_elements()), URL, []))
    assert names(usable_elements(list(pm.all_elements()), URL, ["127.0.0.1:8000"])) == ["Large", "Other"]
    assert domain_allowed("https://shop.example.com/x", ["example.com"])
    assert not domain_allowed("https://example.com.evil.net/", ["example.com"])


def test_prefilter_drops_current_page_navigation_and_the_active_tab():
    pm = page(NAV)
    candidates = [
        Candidate(kind="navigate", label="here", url=URL + "#section"),
        Candidate(kind="navigate", label="there", url="http://127.0.0.1:8000/other"),
        Candidate(kind="navigate", label="away", url="https://elsewhere.example/"),
        Candidate(kind="switch_tab", label="tab 1", tab_id=1),
        Candidate(kind="switch_tab", label="tab 2", tab_id=2),
    ]
    kept = prefilter(candidates, pm, page_url=URL, active_tab=1, allowed_domains=["127.0.0.1:8000"])
    assert [c.label for c in kept] == ["there", "tab 2"]


# ---------------------------------------------------------------- gathering


def choose(indices) -> str:
    return json.dumps({"indices": indices})


MAIN = "".join(f"<p>Paragraph {i} about kettles, their prices and their colours, for the test page.</p>" for i in range(30))
SHOP = (f"<header><a href='/'>Shop home</a><input type='search' aria-label='Search'></header>"
        f"<main><h1>Kettles</h1>{MAIN}<ul>" + "".join(f"<li><a href='/k{i}'>Kettle {i}</a></li>" for i in range(12)) +
        "</ul></main><footer><a href='/help'>Help</a><a href='/about'>About</a></footer>")


@pytest.fixture
def filter_from_thirteen(monkeypatch):
    """The filtering call's own behaviour on this 20-odd-candidate page: below the default bound it is not asked
    (test_a_page_of_fewer_candidates_than_the_bound_is_not_filtered)."""
    from companion.act import candidates

    monkeypatch.setattr(candidates, "FEW_CANDIDATES", 12)


async def test_a_page_of_fewer_candidates_than_the_bound_is_not_filtered(scripted_llm, llm_client_for):
    """The filter costs the whole list once more and never saves prompt tokens: 20-odd candidates go to the choice."""
    from companion.act.candidates import FEW_CANDIDATES

    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    results = next(s for s in pm.sections if any(e.name == "Kettle 2" for e in s.all_elements()))
    server = scripted_llm(rules=[])
    llm_client_for(server)
    got = await gather_candidates(ctx_for(pm, task="Open the red kettle"),
                                  obs([results.id], [s.id for s in pm.sections if s.id != results.id]))

    assert server.requests == []
    assert 12 < len(got) <= FEW_CANDIDATES + 2  # every kettle, the top sections' links, then end task
    assert {f'link "Kettle {i}"' for i in range(12)} <= {c.label for c in got}


async def test_gather_packs_the_sections_and_navigation_into_one_call_each_candidate_naming_its_part(scripted_llm, llm_client_for, filter_from_thirteen):
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    sections = [s.id for s in pm.sections]
    results = next(s for s in pm.sections if any(e.name == "Kettle 2" for e in s.all_elements()))
    others = [sid for sid in sections if sid != results.id]
    kettle = next(i for i, e in enumerate(results.all_elements()) if e.name == "Kettle 2")
    server = scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose([kettle])]}])
    llm_client_for(server)
    ctx = ctx_for(pm, task="Open the red kettle", visited_urls=["http://127.0.0.1:8000/", "http://127.0.0.1:8000/kettles"],
                  bookmarks=[Bookmark(url="http://127.0.0.1:8000/help", title="Help")])
    got = await gather_candidates(ctx, obs([results.id], others, extractions={results.id: "Kettle 2 is red"}))

    (asked,) = [r.last_user for r in server.requests]  # 20-odd candidates of three groups: one call, not three
    assert "part 1: " in asked and "Details relevant to the task: Kettle 2 is red" in asked
    assert "part 2: other sections near the top" in asked and "part 3: navigation actions" in asked
    assert 'link "Kettle 2" (part 1)' in asked and 'link "Shop home" (part 2)' in asked
    # The current page is never offered as a navigation; the bookmark is.
    assert "/kettles (visited" not in asked and "go to bookmark http://127.0.0.1:8000/help (Help) (part 3)" in asked
    # What the actor is offered has no part numbers: they belong to the filtering call.
    assert [c.label for c in got][:1] == ['link "Kettle 2"'] and not any("(part" in c.label for c in got)


async def test_a_filtering_call_may_keep_more_than_twelve_and_is_not_asked_again(scripted_llm, llm_client_for, filter_from_thirteen):
    """A bound of 12 picks, with the rest asked again, cost the admin's product list seven calls per step."""
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    results = next(s for s in pm.sections if any(e.name == "Kettle 2" for e in s.all_elements()))
    kettles = [i for i, e in enumerate(results.all_elements()) if e.name.startswith("Kettle ")]
    server = scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose(kettles)]}])
    llm_client_for(server)
    others = [s.id for s in pm.sections if s.id != results.id]

    got = await gather_candidates(ctx_for(pm, task="Open a kettle"), obs([results.id], others))

    assert len(server.requests) == 1
    assert [c.label for c in got if c.kind == "element"] == [f'link "Kettle {i}"' for i in range(12)] and len(kettles) == 12
    schema = json.dumps(server.requests[0].body)
    assert '"maxItems": 12' not in schema  # the answer may hold every candidate it was shown


def test_packing_never_splits_a_group_and_starts_a_call_when_the_next_group_does_not_fit():
    def group(name: str, n: int) -> tuple[str, list[Candidate]]:
        return name, [Candidate(kind="navigate", label=f"{name} {i}", url=f"http://127.0.0.1/{name}/{i}") for i in range(n)]

    packs = packed([group("a", 3), group("b", 0), group("c", 50), group("d", 60), group("e", 10)], size=60)
    assert [p.contexts for p in packs] == [["a", "c"], ["d"], ["e"]]
    assert packs[0].labels[2:4] == ["a 2 (part 1)", "c 0 (part 2)"] and packs[1].labels[0] == "d 0"
    assert packs[1].context == "d"  # a call of one group reads as before: its own context, no parts


async def test_gather_asks_once_on_a_small_page(scripted_llm, llm_client_for, filter_from_thirteen):
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    results = next(s for s in pm.sections if any(e.name == "Kettle 2" for e in s.all_elements()))
    server = scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose([2])]}])
    llm_client_for(server)
    ctx = ctx_for(pm, task="Open the red kettle", visited_urls=["http://127.0.0.1:8000/"])
    small = obs([s.id for s in pm.sections], [], extractions={results.id: "Kettle 2 is red"}).model_copy(update={"small": True})

    got = await gather_candidates(ctx, small)

    (asked,) = [r.last_user for r in server.requests]  # one call, not one per section and one for navigation
    assert 'link "Kettle 11"' in asked and 'link "Help"' in asked and "go back to http://127.0.0.1:8000/" in asked
    assert "every section of this small page" in asked
    assert len([c for c in got if c.kind in ("element", "navigate")]) == 1


# A back office's list: header, breadcrumbs, a button, the sidebar, the add link and help (six sections with
# links) before the list's own search form.
LIST = ("<header><a href='/'>Shop</a><a href='/pw'>Password</a></header><nav><a href='/'>Home</a> › <a href='/s'>Shop</a>"
        "</nav><button>Toggle navigation</button><nav><a href='/a'>Groups</a><a href='/b'>Orders</a><a href='/products'>Products</a>"
        "</nav><h1>Products</h1><ul><li><a href='/add'>Add product</a></li></ul><nav><a href='/help'>Help</a></nav>"
        "<div><form action='/products'><input name='q' aria-label='Search'><button>Search</button></form></div>"
        "<table><tr><th>Name</th></tr><tr><td>Kettle</td></tr></table>")


async def test_a_search_form_past_the_first_unselected_sections_is_still_offered(scripted_llm, llm_client_for):
    snap = snapshot_from_html(f"<html><body>{LIST}</body></html>", url="http://127.0.0.1:8000/products")
    pm = divide_page(snap)
    with_links = [s for s in pm.sections if any(e.role == "link" or e.role == "button" for e in s.all_elements())]
    assert [e.name for e in with_links[UNSELECTED_SECTIONS].all_elements()] == ["Help"]  # past the five places
    llm_client_for(scripted_llm(rules=[]))

    ctx = ctx_for(pm, task="What is the price of the Turntable?")
    ctx.page.forms = FormMembership.of(snap)  # the search form sends a query to the site
    got = [c.label for c in await gather_candidates(ctx, obs([], [s.id for s in pm.sections]))]

    # The search for what the page does not show comes first, said by the list's name in the site's navigation; the
    # sixth section's link is not offered.
    assert got[0] == 'search Products for "Turntable"', got
    assert 'link "Orders"' in got and 'link "Help"' not in got


async def test_gather_honours_exclude_and_active_view_all(scripted_llm, llm_client_for):
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    server = scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose([0])]}])
    llm_client_for(server)
    ctx = ctx_for(pm, view_all_active=True)
    first = await gather_candidates(ctx, obs([pm.sections[0].id], [s.id for s in pm.sections[1:]]))
    dropped = first[0]
    again = await gather_candidates(ctx, obs([pm.sections[0].id], [s.id for s in pm.sections[1:]]), exclude={dropped.key, "end_task"})
    assert dropped.key not in {c.key for c in again}
    assert "view_all" not in {c.kind for c in first} and "end_task" not in {c.kind for c in again}
    assert first[-1].kind == "end_task"


async def test_switch_tab_is_offered_only_with_several_tabs(scripted_llm, llm_client_for):
    pm = page(NAV)
    server = scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose([0])]}])
    llm_client_for(server)
    tabs = [TabInfo(tab_id=1, url=URL, title="page", active=True), TabInfo(tab_id=2, url="http://127.0.0.1:8000/b", title="B")]
    got = await gather_candidates(ctx_for(pm, tabs=tabs), obs([], [s.id for s in pm.sections]))
    assert [c.tab_id for c in got if c.kind == "switch_tab"] == [2]
    got = await gather_candidates(ctx_for(pm, tabs=tabs[:1]), obs([], [s.id for s in pm.sections]))
    assert not [c for c in got if c.kind == "switch_tab"]


# ---------------------------------------------------------------- routing and predicates


ROUTES = """<form><input aria-label="Name"><input type="search" aria-label="Find"><select aria-label="Size"><option>S</option></select>
<input type="file" aria-label="Photo"><input type="checkbox" aria-label="Gift">
<input role="combobox" aria-autocomplete="list" aria-label="City"></form>
<div><button aria-haspopup="menu">Account</button><button>Copy link</button><a href="/shipping">Shipping details</a>
<a href="/list?page=2">Next page</a></div>"""


def test_element_action_decision_tree():
    pm = page(ROUTES)
    ctx = ctx_for(pm)
    route = {e.name: element_route(ctx, e) for e in pm.all_elements()}
    assert route == {"Name": "input", "Find": "search", "Size": "select", "Photo": "upload", "Gift": "check",
                     "City": "autocomplete", "Account": "dropdown", "Copy link": "copy",
                     "Shipping details": "dropdown",  # never explored: may open something
                     "Next page": "click"}  # a pagination link shows the next page, no menu
    link = next(e for e in pm.all_elements() if e.name == "Shipping details")
    link.explored = True
    assert element_route(ctx, link) == "click"
    account = next(e for e in pm.all_elements() if e.name == "Account")
    link.dropdown_elements = [account.ref]  # known from exploration to reveal elements
    assert element_route(ctx, link) == "dropdown"


def test_is_form_needs_two_inputs_and_a_submit_like_button():
    two = page("<div><input aria-label='User'><input type='password' aria-label='Pass'><button>Sign in</button></div>")
    assert is_form_cluster(list(two.all_elements()))
    menu = page("<div><a href='/a'>Orders</a><a href='/b'>Settings</a><button>Log out</button></div>")
    assert not is_form_cluster(list(menu.all_elements()))


def test_irreversible_buttons_are_recognised():
    pm = page("<div><button>Delete account</button><button>Place order</button><button>Next</button><a href='/x'>Send money</a></div>")
    flagged = {e.name: irreversible_reason(e) is not None for e in pm.all_elements()}
    assert flagged == {"Delete account": True, "Place order": True, "Next": False, "Send money": True}


def test_enclosing_forms_map_fields_to_their_form():
    snap = snapshot_from_html("<html><body><form aria-label='Login'><div><input id='u'></div><button id='b'>Go</button></form>"
                              "<input id='outside'></body></html>")
    forms = FormMembership.of(snap)
    members, labels = forms.members, forms.labels
    ids = ids_of(snap)
    form = members[(0, ids["u"])]
    assert members[(0, ids["b"])] == form and (0, ids["outside"]) not in members
    assert labels[form] == "Login"


def test_action_strings_never_carry_a_password():
    pm = page("<div><input type='password' aria-label='Password'><input aria-label='User'></div>")
    password, user = sorted(pm.all_elements(), key=lambda e: e.name)
    assert say.typed(password, "hunter22") == 'Typed a password into textbox "Password"'
    assert say.typed(user, "alice") == 'Typed "alice" into textbox "User"'


async def test_the_address_bar_is_offered_only_to_a_task_that_writes_a_web_address():
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")

    async def kinds(task: str) -> list[str]:
        return [c.kind for c in await gather_candidates(ctx_for(pm, task=task), obs([], []))]

    assert "type_url" not in await kinds("Find the other page")
    assert "type_url" in await kinds("Open shop.example.com and find the other page")
    assert "type_url" in await kinds("Go to http://127.0.0.1:8000/admin/ and find the other page")


def test_changes_of_several_refreshes_fold_into_the_net_change():
    html = lambda menu, value: (f"<html><body><div><button>Menu</button><input id='q' value='{value}'>"
                                + ("<a id='m' href='/x'>Item</a>" if menu else "") + "</div></body></html>")
    s0 = snapshot_from_html(html(False, "a"))
    pm = divide_page(s0)
    ids = ids_of(s0)
    opened = update_page_mem(pm, snapshot_from_html(html(True, "b"), ids=ids))
    ids = {**ids, **ids_of(snapshot_from_html(html(True, "b"), ids=ids))}
    closed = update_page_mem(pm, snapshot_from_html(html(False, "c"), ids=ids))
    net = merge_updates(merge_updates(None, opened), closed)
    assert net.added_elements == []  # the item came and went
    (change,) = [c for d in net.diffs.values() for c in d.modified]
    assert (change.before.value, change.after.value) == ("a", "c")


async def test_garbage_filter_answers_keep_the_candidates_they_were_about(scripted_llm, llm_client_for):
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    llm_client_for(scripted_llm(garbage=True, rules=[{"prompt": "candidate_filtering", "responses": ["ignored: garbage"]}]))
    got = await gather_candidates(ctx_for(pm), obs([s.id for s in pm.sections], []))
    assert got[-1].kind == "end_task"
    assert {c.kind for c in got[:-1]} == {"element"}
    assert len(got) - 1 == len(list(pm.all_elements()))  # nothing dropped unseen (it used to keep the first 12)


async def test_view_all_is_offered_only_when_the_observation_left_content_out(scripted_llm, llm_client_for):
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    llm_client_for(scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose([0])]}]))
    everything = await gather_candidates(ctx_for(pm), obs([s.id for s in pm.sections], []))
    partial = await gather_candidates(ctx_for(pm), obs([pm.sections[0].id], [s.id for s in pm.sections[1:]]))
    assert "view_all" not in {c.kind for c in everything}
    assert "view_all" in {c.kind for c in partial}


async def test_a_list_narrowed_by_item_selection_offers_only_the_selected_items(scripted_llm, llm_client_for):
    pm = page(SHOP, url="http://127.0.0.1:8000/kettles")
    lst = next(s for s in pm.sections if s.kind == "list")
    picked = next(item for item in lst.items if any(e.name == "Kettle 3" for e in item.all_elements()))
    server = scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose([0])]}])
    llm_client_for(server)
    observation = obs([lst.id], []).model_copy(update={"list_items": {lst.id: [picked.id]}})
    got = await gather_candidates(ctx_for(pm), observation)
    assert [c.label for c in got if c.kind == "element"] == ['link "Kettle 3"']
    assert server.requests == []  # so few candidates are not filtered (candidates.FEW_CANDIDATES)


async def test_element_labels_carry_no_index_and_repeated_names_are_told_apart(scripted_llm, llm_client_for):
    pm = page("<nav><a href='/a'>Home</a><a href='/b'>Shop</a></nav><footer><a href='/c'>Home</a></footer>",
              url="http://127.0.0.1:8000/kettles")
    llm_client_for(scripted_llm(rules=[{"prompt": "candidate_filtering", "responses": [choose([0, 1, 2])]}]))
    got = await gather_candidates(ctx_for(pm), obs([s.id for s in pm.sections], []))
    labels = [c.label for c in got if c.kind == "element"]
    assert labels == ['link "Home" (1 of 2)', 'link "Shop"', 'link "Home" (2 of 2)']


async def test_alike_controls_keep_their_places_whatever_their_state(scripted_llm, llm_client_for):
    # A checked box had left the group: "(2 of 3)" became "(1 of 2)" under the model's eyes.
    pm = page("<div><input type='checkbox' checked><input type='checkbox'><input type='checkbox'>"
              "<button>Submit</button></div>", url="http://127.0.0.1:8000/form")
    llm_client_for(scripted_llm())
    got = await gather_candidates(ctx_for(pm), obs([s.id for s in pm.sections], []))
    labels = [c.label for c in got if c.kind == "element" and c.label.startswith("checkbox")]
    assert [label.rsplit(" ", 3)[-3:] for label in labels] == [["(1", "of", "3)"], ["(2", "of", "3)"], ["(3", "of", "3)"]], labels
    assert "[checked]" in labels[0] and "[checked]" not in labels[1]


def test_the_name_an_item_is_sent_to_is_a_destination_only_when_the_task_names_who_wrote_it():
    from companion.act.premature import destinations

    assert destinations("The mail by Brandea should be forwarded to Elisabetta.") == {"elisabetta"}
    assert destinations("FOrward to Fredia the email that Anni sent to me today.") == {"fredia"}
    assert destinations("Send a message to Bob.") == set()  # Bob's row may well be the one to open


def test_the_words_of_the_text_to_write_name_nothing_on_the_page():
    from companion.act.premature import words_to_write

    assert words_to_write('Find the email by Tillie and reply to them with the text "Ultrices."') == {"ultrice"}  # singular
    assert words_to_write('Switch between the tabs to find and click on the link "enim".') == set()


def test_the_kind_of_control_a_task_acts_on_is_read_only_where_it_names_a_control():
    from companion.act.premature import _KIND_NAMED
    assert _KIND_NAMED.search('Click on a "text" widget.').group("quoted") == "text"
    assert _KIND_NAMED.search("Click the checkbox to accept the terms.").group("kind") == "checkbox"
    assert _KIND_NAMED.search("Focus into the text area.").group("kind") == "text area"
    assert _KIND_NAMED.search('Select the text "lorem" in the paragraph.') is None  # a passage, not a control
    assert _KIND_NAMED.search("Click the button labelled Save.") is None  # a name says more than its kind
