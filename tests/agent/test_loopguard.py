"""Loop detection: the same action on the same page state 3 times nudges, 5 times stops."""

from companion.agent.loopguard import LoopGuard, page_state, page_text
from companion.pagemem.model import Element, PageMem, PageSection
from companion.protocol import Box, ElementRef


def _page(url: str, value: str = "", checked: bool = False, clock: str = "10:00:00", eid: int = 1) -> PageMem:
    field = Element(ref=ElementRef(frame=0, id=eid), index=1, tag="input", role="textbox", name="Name", value=value)
    box = Element(ref=ElementRef(frame=0, id=eid + 1), index=2, tag="input", role="checkbox", name="Agree",
                  attrs={"type": "checkbox"}, checked=checked)
    return PageMem(url=url, sections=[PageSection(id="s1", kind="normal", roots=[], tag="div", elements=[field, box],
                                                  details=f"text: It is {clock}", content_hash=clock)])


def test_page_state_changes_with_element_state_and_url_only():
    assert page_state(_page("http://h/a")) == page_state(_page("http://h/a"))
    assert page_state(_page("http://h/a")) != page_state(_page("http://h/a", value="Kim"))
    assert page_state(_page("http://h/a")) != page_state(_page("http://h/a", checked=True))
    assert page_state(_page("http://h/a")) != page_state(_page("http://h/b"))


def _boxes(x: float, drag: bool) -> PageMem:
    el = Element(ref=ElementRef(frame=0, id=1), index=1, tag="div", role="generic", name="s", drag=drag,
                 box=Box(x=x, y=10, w=20, h=20))
    return PageMem(url="http://h/a", sections=[PageSection(id="s1", kind="normal", roots=[], tag="div", elements=[el])])


def test_a_draggable_element_moved_is_another_state_and_a_fixed_one_moved_by_layout_is_not():
    # A box dragged into another changes no text: the drag read as a no-op and the model did it again.
    assert page_state(_boxes(10, drag=True)) != page_state(_boxes(70, drag=True))
    assert page_state(_boxes(10, drag=True)) == page_state(_boxes(11, drag=True))  # a pixel: not moved
    assert page_state(_boxes(10, drag=False)) == page_state(_boxes(70, drag=False))


def test_page_state_ignores_a_ticking_clock_and_re_created_nodes():
    # The rendered text (and so the section's content hash) changes every second; no element does.
    assert page_state(_page("http://h/a", clock="10:00:00")) == page_state(_page("http://h/a", clock="10:00:01"))
    assert page_state(_page("http://h/a", eid=1)) == page_state(_page("http://h/a", eid=7))


def test_nudge_appears_at_the_third_repetition_and_names_the_action():
    guard = LoopGuard()
    for _ in range(2):
        guard.record("S", 'Click [5] button "More"')
    assert guard.nudge("S") == ""
    guard.record("S", 'Click [5] button "More"')
    nudge = guard.nudge("S")
    assert 'Click [5] button "More" (3 times)' in nudge
    assert guard.nudge("other state") == ""  # another page state is not a loop
    assert not guard.should_stop("S", 'Click [5] button "More"')


def test_fifth_repetition_stops_with_an_explanation():
    guard = LoopGuard()
    counts = [guard.record("S", "Press Enter") for _ in range(5)]
    assert counts == [1, 2, 3, 4, 5]
    assert guard.should_stop("S", "Press Enter")
    assert "5 times" in guard.explanation("S", "Press Enter")


def test_different_actions_on_one_state_are_counted_apart():
    guard = LoopGuard()
    for action in ["a", "b", "a", "b", "a"]:
        guard.record("S", action)
    assert [a for a, _ in guard.repeated("S")] == ["a"]


def test_an_action_that_left_state_and_text_as_they_were_is_a_known_noop_there():
    guard = LoopGuard()
    guard.record("S", 'button "Reject all"', "T")
    guard.look("S", "T")
    assert guard.changed_nothing("S") == {'button "Reject all"'}
    assert guard.changed_nothing("S2") == set()  # known on that state only


def test_an_action_that_changed_the_text_or_the_state_is_not_a_noop():
    guard = LoopGuard()
    guard.record("S", 'button "Add one"', "count 0")
    guard.look("S", "count 1")  # only text changed (a counter): it did something
    guard.record("S", 'button "Next"', "count 1")
    guard.look("S2", "count 1")  # the state changed
    assert guard.changed_nothing("S") == set()


def test_a_look_judges_only_the_action_done_just_before_it():
    guard = LoopGuard()
    guard.record("S", 'button "Go"', "T")
    guard.look("S2", "T2")
    guard.look("S", "T")  # back on S later, with no action in between: "Go" did change the page
    assert guard.changed_nothing("S") == set()


def test_page_text_ignores_our_element_numbers_but_not_the_words():
    def page(details: str) -> PageMem:
        return PageMem(url="http://h/a", sections=[PageSection(id="s1", kind="normal", roots=[], tag="div",
                                                               details=details, content_hash="x")])
    # The same results re-created by a second search get new numbers: the same text.
    assert page_text(page('- [12] link "Moka Express pot"')) == page_text(page('- [31] link "Moka Express pot"'))
    assert page_text(page('- [12] link "Moka Express pot"')) != page_text(page('- [12] link "Moka pot gasket set"'))


def test_the_third_step_starting_on_the_same_unchanged_page_is_nudged():
    # shop -> kettles (the answer) -> shop -> kettles -> ...: no action repeats on one state, the pages do.
    guard = LoopGuard()
    for step, page in enumerate(["shop", "kettles", "shop", "kettles", "about"], 1):
        guard.arrive(page, f"text of {page}", step)
    assert guard.nudge("kettles", "text of kettles") == ""  # twice: going back to a list is ordinary
    assert guard.nudge("about", "text of about") == ""
    guard.arrive("kettles", "text of kettles", 6)
    line = guard.nudge("kettles", "text of kettles")
    assert line.startswith("Warning: steps 2, 4 and this one all started on this same page, unchanged")
    assert "If what it shows answers the task, end the task" in line
    assert guard.nudge("kettles", "the price changed") == ""  # the same state with other text is another look


def test_a_step_that_chooses_again_on_its_page_is_one_arrival():
    guard = LoopGuard()
    for _ in range(3):
        guard.arrive("form", "text", 1)
    assert guard.returned("form", "text") == []


def test_known_noops_expire_on_another_url_but_not_on_another_fragment():
    """A form left unsubmitted on a first try changed nothing then; once the agent has been on another URL (path
    or query), the same action on the same page state is offered again. A fragment is the same document."""
    guard = LoopGuard()
    guard.at("http://shop.test/admin/login/")
    guard.record("S", 'button "Log in"', "T")
    guard.look("S", "T")
    guard.at("http://shop.test/admin/login/#main")
    assert guard.changed_nothing("S") == {'button "Log in"'}
    guard.at("http://shop.test/admin/login/?next=/admin/")
    guard.at("http://shop.test/admin/login/")
    assert guard.changed_nothing("S") == set()


def test_an_action_that_failed_on_a_state_stays_failed_there_until_the_url_changes():
    guard = LoopGuard()
    guard.at("http://h/list")
    guard.failed("S", 'option "Archive" (in the menu of button "Actions")')
    assert guard.failed_here("S") == {'option "Archive" (in the menu of button "Actions")'}
    assert guard.failed_here("T") == set()  # another state of the page: it may work there
    guard.at("http://h/list#top")  # the same document
    assert guard.failed_here("S")
    guard.at("http://h/list?page=2")
    assert guard.failed_here("S") == set()


def test_an_action_that_took_the_page_back_to_an_earlier_state_is_known_there_until_the_url_changes():
    guard = LoopGuard()
    closed, opened = _page("http://h/a"), _page("http://h/a", checked=True)
    a, b = (page_state(closed), page_text(closed)), (page_state(opened), page_text(opened))
    guard.at("http://h/a")
    guard.record(a[0], "Clicked Toggle", a[1])
    guard.look(*b)  # forward: it changed the page to a state not seen before
    assert guard.came_back(*a) == set() and guard.changed_nothing(a[0]) == set()
    guard.record(b[0], "Clicked Toggle", b[1])
    guard.look(*a)  # and back to where the page was
    assert guard.came_back(*b) == {"Clicked Toggle"}
    assert guard.came_back(*a) == set()  # the way forward stays open
    guard.at("http://h/other")
    assert guard.came_back(*b) == set()


def test_a_look_after_the_url_changed_learns_no_way_back():
    guard = LoopGuard()
    here, there = _page("http://h/a"), _page("http://h/b")
    guard.at("http://h/a")
    guard.record(page_state(here), "Clicked Go", page_text(here))
    guard.at("http://h/b")  # the click navigated: what was learnt on /a is gone
    guard.look(page_state(there), page_text(there))
    assert guard.came_back(page_state(here), page_text(here)) == set()
