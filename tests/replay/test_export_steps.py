"""The user flow of recorded exchanges (companion/commands/export.py user_flow), pure logic: what a select, a
checkbox and a failed action become."""

from __future__ import annotations

from companion.replay.recorded import Exchange
from companion.commands.export import user_flow

SIZE = {"frame": 0, "id": 7}
SIZE_ELEMENT = {"selectors": [["#size"]], "tag": "select", "role": "combobox", "name": "Size", "offset": [40, 10]}
BOX_ELEMENT = {"selectors": [["#gift"]], "tag": "input", "type": "checkbox", "name": "Gift", "offset": [6, 6]}
OK = {"type": "action_result", "id": "x", "tab_id": 1, "ok": True}


def act(action: dict, element: dict, reply: dict = OK) -> Exchange:
    return Exchange(call="act", step=1, request={"tab": 1, "action": action}, reply=reply, element=element)


def page_with_size(value: str) -> Exchange:
    snapshot = {"url": "http://127.0.0.1:1/p.html", "title": "p", "viewport": {"width": 800, "height": 600},
                "scroll": {}, "frames": [{"frame": 0, "elements": [{"id": 7, "tag": "select", "value": value}]}]}
    return Exchange(call="snapshot", step=1, request={"tab": 1}, reply={"snapshot": snapshot}, page=[], viewport=[800, 600])


def test_an_option_chosen_by_label_is_changed_to_the_value_the_next_page_shows():
    choose = act({"kind": "select", "target": SIZE, "label": "Medium"}, SIZE_ELEMENT)

    flow, notes = user_flow("t", [choose, page_with_size("m")])

    assert flow["steps"][-1] == {"type": "change", "value": "m", "selectors": [["#size"]], "target": "main"}
    assert notes == []


def test_without_a_kept_page_the_label_is_used_and_the_flow_says_to_check_it():
    flow, notes = user_flow("t", [act({"kind": "select", "target": SIZE, "label": "Medium"}, SIZE_ELEMENT)])

    assert flow["steps"][-1]["value"] == "Medium"
    assert len(notes) == 1 and notes[0].startswith("check: step 1: the option's value is not recorded")


def test_a_box_already_in_the_state_asked_and_a_failed_action_give_no_step():
    gift = {"frame": 0, "id": 9}
    already = act({"kind": "check", "target": gift, "checked": True}, {**BOX_ELEMENT, "checked": True})
    failed = act({"kind": "click", "target": gift}, BOX_ELEMENT, {**OK, "ok": False, "error": "element 9 is gone"})
    ticked = act({"kind": "check", "target": gift, "checked": True}, BOX_ELEMENT)

    flow, _ = user_flow("t", [already, failed, ticked])

    assert flow["steps"] == [{"type": "click", "target": "main", "selectors": [["#gift"]], "offsetX": 6, "offsetY": 6}]
