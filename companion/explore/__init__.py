"""Exploration (WebChallenger §2.3, appendix A.2): a depth-first crawl of one site that fills its WebsiteMem.

    should_skip.py     ShouldSkip, the static filter applied before any click
    model.py           the typed records: stubs, candidates, click outcomes, page results, limits, counters
    tabs.py            ExploreTab: one browser tab exploration drives (launched, remote WebDriver, user's own)
    explore_element.py ExploreElement on a live tab: click, diff, record, restore the pre-click state
    iterate.py         IteratePage / IterateListItem: which elements to click, in document order
    repeats.py         the repeat key: rows of a table, values of a filter, days of a date picker are one element
    controls.py        a page's controls: links that only change its query (sort, filter, pages), its search box
    explore_page.py    ExplorePage on a worker: load, DividePage, MatchesTemplate, iterate
    frontier.py        the persisted frontier and explored set (a stopped run resumes)
    batch.py           one committed page, one atomic write of the site's memory file
    explorer.py        the coordinator: depth-first order, workers, commits into the site's memory
    progress.py        the live display (rich) and the closing report
    summaries.py       page and section summaries with the LLM (observe/abstraction.py)
"""
