"""The agent: the step loop (loop.run_task), its history, end-task verification, continuation, loop detection,
task events and the task service behind the extension's side panel."""
