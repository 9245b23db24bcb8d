"""ucutlass_harness: the Python side of the ucutlass evaluation harness.

Run as ``python3 -m ucutlass_harness <subcommand>``; see ``cli.py`` for the
subcommands and docs/formats.md for the JSON formats they read and write.
Modules that need torch import it lazily, so the torch-free parts (static
checks, tolerance profiles, scores, KernelBench run files, worker isolation)
work on machines without torch.
"""

__version__ = "0.1.0"
