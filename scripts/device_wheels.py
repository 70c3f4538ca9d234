"""Download the wheels that the GPU machine lacks (scripts/device_wheels.txt) for CPython 3.12 on manylinux x86_64.

    python scripts/device_wheels.py [--dest .whl] [--extra 'transformers==5.24.0' ...] [--limit-mib 64]

Then checks the folder: exactly one version per project, every wheel's requirements (for Linux x86_64, Python
3.12) met by a wheel there or by a package the image has (the list's ``# IMAGE:`` line), and the total size within
the limit of what travels with the working tree (printed; exit 1 when over, or when a requirement is unmet).
Wheels in the folder that the list does not name are removed first, so that two versions never travel together.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import zipfile
from pathlib import Path

try:
    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name, parse_wheel_filename
except ImportError:  # a Python with pip but without packaging: pip's own copy
    from pip._vendor.packaging.markers import default_environment
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "scripts" / "device_wheels.txt"
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_24_x86_64", "manylinux_2_17_x86_64",
             "manylinux2014_x86_64", "manylinux1_x86_64")
# The GPU machine: Linux x86_64, CPython 3.12 (what the requirements' markers are evaluated against).
TARGET = {**default_environment(), "python_version": "3.12", "python_full_version": "3.12.3",
          "sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
          "implementation_name": "cpython", "platform_python_implementation": "CPython", "os_name": "posix"}


def read_list(path: Path) -> tuple[list[str], set[str]]:
    pins, image = [], set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("# IMAGE:"):
            image = {canonicalize_name(n) for n in line.removeprefix("# IMAGE:").split()}
        elif line and not line.startswith("#"):
            pins.append(line)
    return pins, image


def download(pins: list[str], dest: Path) -> None:
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
           "--python-version", "3.12", "--implementation", "cp", "--dest", str(dest)]
    for platform in PLATFORMS:
        cmd += ["--platform", platform]
    subprocess.run(cmd + pins, check=True)


def requirements(wheel: Path) -> list[Requirement]:
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        text = z.read(name).decode("utf-8")
    out = []
    for line in text.splitlines():
        if line.startswith("Requires-Dist:"):
            req = Requirement(line.removeprefix("Requires-Dist:").strip())
            if req.marker is None or req.marker.evaluate({**TARGET, "extra": ""}):
                out.append(req)
    return out


def check(dest: Path, pins: list[str], image: set[str]) -> list[str]:
    problems, versions = [], {}
    wanted = {canonicalize_name(Requirement(p).name) for p in pins}
    for wheel in sorted(dest.glob("*.whl")):
        name, version, _, _ = parse_wheel_filename(wheel.name)
        if name not in wanted:
            wheel.unlink()
            print(f"removed {wheel.name} (not in {LIST.name})")
            continue
        if name in versions:
            problems.append(f"two versions of {name}: {versions[name]} and {version}")
        versions[name] = version
    for wheel in sorted(dest.glob("*.whl")):
        for req in requirements(wheel):
            have = versions.get(canonicalize_name(req.name))
            if have is not None:
                if not req.specifier.contains(have, prereleases=True):
                    problems.append(f"{wheel.name} needs {req}, the folder has {have}")
            elif canonicalize_name(req.name) not in image:
                problems.append(f"{wheel.name} needs {req}: neither in {LIST.name} nor on the image")
    missing = wanted - set(versions)
    problems += [f"no wheel for {name}" for name in sorted(missing)]
    return problems


def working_tree_bytes() -> int:
    """Tracked files and untracked files git does not ignore: what travels to the GPU machine besides the wheels."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):
        return 0
    return sum((ROOT / name.decode()).stat().st_size for name in listed if name and (ROOT / name.decode()).is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", default=str(ROOT / ".whl"))
    parser.add_argument("--extra", action="append", default=[], metavar="PIN",
                        help="another pin, e.g. transformers==5.24.0 to replace the image's version")
    parser.add_argument("--limit-mib", type=float, default=64.0)
    args = parser.parse_args()
    pins, image = read_list(LIST)
    pins += args.extra
    dest = Path(args.dest)
    dest.mkdir(parents=True, exist_ok=True)
    download(pins, dest)
    problems = check(dest, pins, image)
    sizes = {w.name: w.stat().st_size for w in sorted(dest.glob("*.whl"))}
    for name, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        print(f"{size / 2**20:8.2f} MiB  {name}")
    total = sum(sizes.values()) / 2**20
    tree = working_tree_bytes() / 2**20
    print(f"{total:8.2f} MiB  total in {dest} ({len(sizes)} wheels)")
    print(f"{tree:8.2f} MiB  the working tree that travels with them")
    print(f"{total + tree:8.2f} MiB  in all (limit {args.limit_mib:g} MiB)")
    if total + tree > args.limit_mib:
        problems.append(f"{total + tree:.2f} MiB is over the {args.limit_mib:g} MiB limit")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
