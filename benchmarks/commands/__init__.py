"""The `webchallenger bench <name>` front ends: one module per benchmark, each with register(bench_subparsers)
and a `func(args) -> int` on its parser; the harnesses they drive are the modules one level up."""
