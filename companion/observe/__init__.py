"""The observation pipeline (WebChallenger §2.4 + Appendix A.3, Region4Web §3.3 + §4 PageDigest).

Public API:
    PageObserver(store=None, *, client=None, budget=Budget(), page_summary=True, max_selected=None)
        await observer.observe(task, history, pagemem, update=None) -> Observation
        observer.view_all()            every section in full for the rest of this page
    Observation                        summary, selected/unselected ids, extractions, added_group, modal, usage
                                       (Accounting: per-call prompt tokens + server usage), list_items,
                                       section_elements(pagemem, sid) (a list's selected items only), page_summary
    Budget                             token bound of every prompt (default 6,000) and chunk sizes
"""

from companion.observe.budget import Budget, BudgetError
from companion.observe.calls import Accounting, CallRecord
from companion.observe.observer import Observation, PageObserver

__all__ = ["Accounting", "Budget", "BudgetError", "CallRecord", "Observation", "PageObserver"]
