"""The history block format of the paper, exactly; failed attempts never appear, nor an empty step but one the
model gave no valid decision in."""

from companion.agent.history import History, StepRecord, format_step


def test_single_action_step_uses_the_singular_heading():
    text = format_step(StepRecord(step=1, page_name="Shop", url="http://127.0.0.1:8000/", summary="A shop with a search box.",
                                  reason="Search for the kettle.", actions=['Click [3] link "Kettles"']))
    assert text == (
        "Step 1\n"
        "Observation: Shop (http://127.0.0.1:8000/) - Summary: A shop with a search box.\n"
        "Reason for Action: Search for the kettle.\n"
        'Action: Click [3] link "Kettles"'
    )


def test_several_actions_are_listed_under_actions():
    text = format_step(StepRecord(step=2, page_name="Search", url="http://h/s", summary="Results.", reason="Refine.",
                                  actions=['Type "red" into [4] searchbox "Search"', "Press Enter"]))
    assert text.splitlines()[-3:] == ["Actions:", '- Type "red" into [4] searchbox "Search"', "- Press Enter"]


def test_blocks_are_separated_by_a_blank_line_and_newlines_inside_fields_are_flattened():
    history = History()
    history.add(StepRecord(step=1, page_name="A", url="http://h/a", summary="line one\nline two", reason="r", actions=["x"]))
    history.add(StepRecord(step=2, page_name="", url="http://h/b", summary="s", reason="r2", actions=["y"]))
    text = history.render()
    assert "Summary: line one line two" in text
    assert "\n\nStep 2\nObservation: http://h/b (http://h/b) - Summary: s" in text  # no title: the URL names the page
    assert history.actions() == ["x", "y"]


def test_empty_history_renders_as_empty_string():
    assert History().render() == ""


def test_a_step_recorded_without_an_action_says_none_and_why():
    record = StepRecord(step=1, page_name="A", url="http://h/", summary="s", reason="-", actions=[],
                        notes=["Step 1 ended with no action: the model gave no valid answer."])
    text = format_step(record)
    assert "Action: none" in text and "Note: Step 1 ended with no action" in text
