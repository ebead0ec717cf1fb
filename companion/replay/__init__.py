"""The browser side of a recorded task: record a live session's exchanges, answer them back from a recording,
or check a live replay against one (recorded.py), and the selectors an exported flow finds each target by
(selectors.py). Above pagemem (they name elements by their accessible name) and the bridge (they wrap a session);
`run --record`, `replay` and `export` use them."""
