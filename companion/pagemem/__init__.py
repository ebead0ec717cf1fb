"""PageMem: the page as ordered sections of interactive elements (WebChallenger §2.2, Appendix A.1).

Public API:
    divide_page(snapshot, options=None) -> PageMem                     (divide.py)
    update_page_mem(pagemem, snapshot) -> PageUpdate                     (update.py)
    update_section(section, tree, pagemem) -> SectionDiff                (update.py)
    matches_template(page, template) -> bool                             (template.py)
    count_tokens(text) -> int                                            (tokens.py)
    Element.line() -> '[12] button "Add to cart"'; PageSection.details   (render.py)
"""
