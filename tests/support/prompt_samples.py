"""Sample page texts the prompt tests render (hostile and ordinary)."""

from __future__ import annotations

CTX = {"task": "Find the cheapest red kettle", "history": ""}
SAMPLES = {
    "section_summary": {"page_title": "Shop", "url": "http://127.0.0.1/", "content": "link 'Kettles'"},
    "page_summary": {"page_title": "Shop", "url": "http://127.0.0.1/", "sections": ["Navigation: links to categories"]},
    "section_selection": {**CTX, "page_title": "Shop", "url": "http://127.0.0.1/", "sections": ["Navigation", "Results"]},
    "detail_extraction": {"task": CTX["task"], "page_title": "Shop", "url": "http://127.0.0.1/", "section_purpose": "Results", "details": "Red kettle $20"},
    "list_item_selection": {**CTX, "list_purpose": "Search results", "items": ["Red kettle $20", "Blue kettle $15"]},
    "list_early_stop": {**CTX, "list_purpose": "Search results", "searched": 20, "remaining": 80, "selected": ["Red kettle $20"]},
    "page_task_summary": {"task": CTX["task"], "steps_done": "Step 1 on Home: Clicked link \"Kettles\"", "page_title": "Shop",
                          "url": "http://127.0.0.1/", "extractions": ["Results: Red kettle $20"]},
    "candidate_filtering": {**CTX, "observation": "Results page", "context": "Results", "candidates": ["Click 'Red kettle'", "Click 'Help'"]},
    "action_selection": {**CTX, "observation": "Results page", "candidates": ["Click 'Red kettle'", "End task"]},
    "form_field_selection": {**CTX, "form_purpose": "Search form", "fields": ["Query (empty)", "Colour (any)"]},
    "field_value": {**CTX, "form_purpose": "Search form", "field": "Query (text, empty)", "problem": "", "others": ""},
    "form_review": {**CTX, "form_purpose": "Search form", "form_state": "Query: kettle", "options": ["Edit field: Query", "Submit the form", "Leave the form"]},
    "dropdown_option": {**CTX, "trigger": "button 'Sort'", "options": ["Price: low to high", "Newest"]},
    "search_suggestion": {**CTX, "query": "red kett", "suggestions": ["red kettle", "red kettle electric"]},
    "input_value": {**CTX, "observation": "Home page", "field": "Search (text)"},
    "search_query": {**CTX, "observation": "Home page", "field": "searchbox 'Search the shop'"},
    "select_option": {**CTX, "field": "Colour (any)", "options": ["any", "red", "blue"]},
    "similar_option": {**CTX, "word": "serene", "options": ["quiet", "comical", "start"]},
    "drop_place": {**CTX, "dragged": "generic 'item 3'", "options": ["onto 'Ruth' (5 of 6)", "left by 60 pixels"]},
    "upload_file_choice": {**CTX, "field": "Attachment", "files": ["photo.png: a kettle", "Create a new text file"]},
    "new_file_content": {**CTX, "field": "Attachment"},
    "end_task_verification": {**CTX, "observation": "Red kettle $20 is the cheapest"},
    "final_answer": {**CTX, "observation": "Red kettle $20 is the cheapest"},
    "change_description": {"action": "Click 'Sort'", "added": ["option 'Newest'"], "removed": [], "changed": []},
    "bookmark_selection": {**CTX, "bookmarks": ["Kettles (http://127.0.0.1/kettles): all kettles"]},
    "choice_probe": {"question": "Which is a fruit?", "options": ["hammer", "apple"]},
}
