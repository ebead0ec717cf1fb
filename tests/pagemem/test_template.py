"""MatchesTemplate: structure decides, content does not."""

from __future__ import annotations

from companion.pagemem.divide import divide_page
from companion.pagemem.template import matches_template
from tests.support.htmlsnap import snapshot_from_html


def product(pid: int, name: str, price: str, reviews: list[str]) -> str:
    revs = "".join(f'<li class="review"><a href="/u/{i}">user{i}</a> {r}</li>' for i, r in enumerate(reviews))
    return (f'<html><body><header><a href="/">Shop</a><a href="/cart">Cart</a></header>'
            f'<div id="product-{pid}" class="product"><h1>{name}</h1><p class="price">{price}</p>'
            f'<form><select name="size"><option>S</option><option>M</option></select><button>Add to cart</button></form></div>'
            f'<ul class="reviews">{revs}</ul><footer><a href="/about">About us</a></footer></body></html>')


def test_two_products_with_different_content_match():
    a = divide_page(snapshot_from_html(product(1, "Red shoe", "$10", ["great", "ok", "meh", "fine"])))
    b = divide_page(snapshot_from_html(product(2345, "Blue boot with laces", "$99.99", ["bad", "good", "nice", "wow", "so-so"])))
    assert matches_template(a, b)
    assert a.template_id == b.template_id


def test_a_different_page_does_not_match():
    a = divide_page(snapshot_from_html(product(1, "Red shoe", "$10", ["great", "ok", "meh", "fine"])))
    other = divide_page(snapshot_from_html(
        '<html><body><header><a href="/">Shop</a></header><form><input name="q"><button>Search</button></form>'
        '<footer><a href="/about">About us</a></footer></body></html>'))
    assert not matches_template(a, other)


def test_same_count_but_different_structure_does_not_match():
    a = divide_page(snapshot_from_html(product(1, "Red shoe", "$10", ["great", "ok", "meh", "fine"])))
    sigs = [s.signature for s in a.sections]
    assert matches_template(a, sigs)
    assert not matches_template(a, sigs[:-1] + ["0" * 16])
