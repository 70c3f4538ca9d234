"""The few names a command line needs before any of the package's machinery: suites, default seed and repetitions,
the Pi_RSA constructions. Importing it loads nothing else, so ``run_eval.py`` starts without the kernels."""

SUITES = ("ladder", "benchmark")
DEFAULT_SEED = 1234
DEFAULT_REPETITIONS = 5
PI_RSA_CHOICES = ("level0", "cover")  # the paper's construction (default), our minimum set cover
