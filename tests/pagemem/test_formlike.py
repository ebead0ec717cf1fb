"""The form-like rule on hand-built snapshots (htmlsnap): what becomes a form section without a <form> tag."""

from __future__ import annotations

from companion.pagemem.divide import divide_page
from tests.support.htmlsnap import snapshot_from_html


def forms(html: str) -> list[list[str]]:
    pm = divide_page(snapshot_from_html(html))
    return [[e.name for e in s.all_elements()] for s in pm.sections if s.kind == "form" or s.form is not None]


def test_two_independent_boxes_on_a_small_page_are_no_form():
    # A search box and a newsletter box: the smallest container holding two fields and a button is the
    # page wrapper, which is no form.
    html = """<html><body><div id="page">
      <div><input aria-label="Search"> <button type="button">Search</button></div>
      <p>Welcome to the shop.</p>
      <div><input type="email" aria-label="Email"> <button type="button">Subscribe</button></div>
    </div></body></html>"""
    assert forms(html) == []


def test_a_box_inside_an_article_is_split_out_as_a_form_and_the_prose_is_not():
    html = """<html><body><article>
      <h2>Contact us</h2><p>We answer within a day.</p>
      <div class="contact"><input aria-label="Your name"> <textarea aria-label="Message"></textarea>
        <div role="button" tabindex="0">Send</div></div>
      <p>Or call the office.</p>
    </article></body></html>"""
    pm = divide_page(snapshot_from_html(html))
    form = next(s for s in pm.sections if s.kind == "form")
    assert [e.name for e in form.all_elements()] == ["Your name", "Message", "Send"]
    assert "We answer within a day" not in form.details
    assert any("We answer within a day" in s.details for s in pm.sections if s.kind == "normal")


def test_a_button_that_does_not_read_as_submit_makes_no_form():
    html = """<html><body><div class="filters"><input aria-label="Min price"> <input aria-label="Max price">
      <button type="button">Reset</button></div><p>Results below.</p></body></html>"""
    assert forms(html) == []
