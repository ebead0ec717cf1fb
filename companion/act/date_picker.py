"""A date picker: a read-only date field whose date is chosen on the calendar it opens, month by month.

"Select 07/16/2016 as the date": the field takes no typing (read-only; the default model's typing failed on it),
and a click on it opens a calendar showing one month, with controls to the previous and next month and a link per
day. The date is the task's one date; the workflow reads the month the calendar shows from its title ("July
2016"), steps to the task's month with the previous/next controls, re-reading the title after each step, and
clicks the day. No LLM call: a person does the same counting. What was clicked is reported even when a step fails,
so the history holds it (ActionFailed.done).
"""

from __future__ import annotations

import re
from datetime import date

from companion.act.basic import click_element, settle
from companion.act.context import AgentContext
from companion.act.errors import ActionFailed
from companion.act.named_fields import FORMATS
from companion.pagemem.model import Element, PageMem, PageSection
from companion.pagemem.widgets import is_text_field

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
# "July 2016", "July\u00a02016", "Jul 2016": the calendar's title.
_TITLE = re.compile(r"\b(" + "|".join(m[:3] for m in MONTHS) + r")[a-z]*\.?[\s,]+(\d{4})\b", re.I)
_PREVIOUS = re.compile(r"^(?:prev(?:ious)?(?: month)?|‹|«|<|←|previous)$", re.I)
_NEXT = re.compile(r"^(?:next(?: month)?|›|»|>|→)$", re.I)
MAX_MONTH_STEPS = 36  # three years of steps: a calendar further from the task's date than that is not this kind
DAY_ROLES = frozenset({"link", "button", "gridcell", "generic", "cell", "option"})


def task_date(task: str) -> date | None:
    """The task's one date (MM/DD/YYYY or YYYY-MM-DD), else None (none, several, or not a real date)."""
    found = list(dict.fromkeys(FORMATS["date"].findall(task)))
    if len(found) != 1:
        return None
    text = found[0]
    try:
        if "-" in text:
            year, month, day = map(int, text.split("-"))
        else:
            month, day, year = map(int, text.split("/"))
        return date(year, month, day)
    except ValueError:
        return None


def is_date_picker(el: Element, task: str) -> bool:
    """A read-only text field, in a task that gives one date: chosen on the calendar it opens."""
    return is_text_field(el) and "readonly" in el.attrs and not el.disabled and task_date(task) is not None


def _calendar(pm: PageMem) -> PageSection | None:
    """The section holding the calendar's month controls."""
    step = _step_control(pm, _PREVIOUS) or _step_control(pm, _NEXT)
    return pm.section_of(step.ref) if step is not None else None


def shown_month(pm: PageMem) -> tuple[int, int] | None:
    """(year, month) of the calendar's title: the first month name and year in the section holding the month
    controls, else anywhere on the page."""
    section = _calendar(pm)
    texts = [section.details] if section is not None else []
    texts += [s.details for s in pm.sections]
    for text in texts:
        m = _TITLE.search(text.replace("\u00a0", " "))
        if m:
            return int(m.group(2)), [x[:3] for x in MONTHS].index(m.group(1).lower()[:3]) + 1
    return None


def _step_control(pm: PageMem, name: re.Pattern) -> Element | None:
    return next((e for e in pm.all_elements() if not e.disabled and name.match((e.name or e.text).strip())), None)


def day_element(pm: PageMem, day: int) -> Element | None:
    """The calendar's link for `day`: the first enabled element whose name is that number alone, in the calendar's
    section (the one holding its month controls) when there is one (a page's "1" of a pager is no day)."""
    section = _calendar(pm)
    elements = list(section.all_elements()) if section is not None else []
    days = [e for e in [*elements, *pm.all_elements()] if not e.disabled and e.role in DAY_ROLES
            and (e.name or e.text).strip() == str(day) and not is_text_field(e)]
    return days[0] if days else None


async def pick_date(ctx: AgentContext, field: Element) -> list[str]:
    """Open the field's calendar, step to the task's month, click its day; the basic actions done."""
    when = task_date(ctx.task)
    if when is None:
        raise ActionFailed("the task gives no one date to pick")
    text, _ = await click_element(ctx, field)
    done = [text]
    await settle(ctx)
    for _ in range(MAX_MONTH_STEPS):
        pm = ctx.pagemem
        shown = shown_month(pm) if pm is not None else None
        if shown is None:
            raise ActionFailed("clicking the date field showed no calendar with a month title", done=done)
        months = (when.year - shown[0]) * 12 + (when.month - shown[1])
        if months == 0:
            day = day_element(pm, when.day)
            if day is None:
                raise ActionFailed(f"the calendar shows no day {when.day} to click", done=done)
            text, _ = await click_element(ctx, day)
            done.append(text)
            await settle(ctx)
            return done
        step = _step_control(pm, _NEXT if months > 0 else _PREVIOUS)
        if step is None:
            raise ActionFailed(f"the calendar has no control to the {'next' if months > 0 else 'previous'} month",
                               done=done)
        text, _ = await click_element(ctx, step)
        done.append(text)
        await settle(ctx)
    raise ActionFailed(f"the calendar did not reach {when:%B %Y} in {MAX_MONTH_STEPS} steps", done=done)
