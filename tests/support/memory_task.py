"""What a task does with a site's memory, as a script for a separate process: open the site's store through
SiteMemory.store_for() (as the agent does), write a summary through the store it got, and print as JSON the
warnings the task saw, whether the store is a scratch one, and the summary read back.

Run it as `python -c TASK_SCRIPT <memory dir> <url>`: damaged memory files are tested as processes, so a file that
hangs or exhausts memory fails that process, not the suite."""

from __future__ import annotations

import textwrap

TASK_SCRIPT = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from companion.agent.site_memory import SiteMemory
    warnings = []
    memory = SiteMemory(Path(sys.argv[1]), warn=warnings.append)
    store = memory.store_for(sys.argv[2])
    store.store_summary("h", "a summary learned during the task")
    print(json.dumps({"warnings": warnings, "scratch": not hasattr(store.db.storage, "path"),
                      "summary": store.cached_summary("h")}))
    memory.close()
""")
