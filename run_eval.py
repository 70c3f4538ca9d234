#!/usr/bin/env python3
"""Evaluation entry point: ``python run_eval.py {mira,elenchos,score,main,agents} ...`` (see harness/cli.py)."""

import sys

from harness.cli import main

if __name__ == "__main__":
    sys.exit(main())
