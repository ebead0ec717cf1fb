"""Loop detection: the same action on the same page state 3 times nudges, 5 times stops."""

from companion.agent.loopguard import LoopGuard, page_state
from companion.pagemem.model import PageMem, PageSection


def _page(url: str, hashes: list[str]) -> PageMem:
    return PageMem(url=url, sections=[PageSection(id=f"s{i}", kind="normal", roots=[], tag="div", content_hash=h)
                                      for i, h in enumerate(hashes)])


def test_page_state_changes_with_content_and_url_only():
    assert page_state(_page("http://h/a", ["x", "y"])) == page_state(_page("http://h/a", ["x", "y"]))
    assert page_state(_page("http://h/a", ["x", "y"])) != page_state(_page("http://h/a", ["x", "z"]))
    assert page_state(_page("http://h/a", ["x"])) != page_state(_page("http://h/b", ["x"]))


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
