import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# huggingface_hub reads these once, at its first import: set them before any test module imports transformers,
# datasets or huggingface_hub, so that every Hub call of any test goes to the fake Hub of tests/builder/fakehub.py.
os.environ["HF_ENDPOINT"] = "https://hub.mock"
os.environ["HF_HUB_DISABLE_XET"] = "1"
os.environ.pop("HF_TOKEN", None)
# Stamps of passed verifications (builder.verified) go to a folder of this process, never to the user's cache;
# each pytest-xdist worker imports this file itself, so each has its own.
os.environ["MIRA_ELENCHOS_CACHE"] = tempfile.mkdtemp(prefix="mira-cache-")
