"""What the protection checks add to the lab VM: strongSwan, the ``pwprobe`` tool, ESP modules.

strongSwan is not installed on the host (installing it would start its services): its Debian
packages are fetched with ``apt-get download`` into a cache directory (``.ci/run`` does it as root;
``L2TPGEN_LAB_DEBS`` names another directory) and unpacked with ``dpkg-deb -x`` when the initramfs
is built. charon, swanctl, their libraries, the few plugins the lab loads and every library they
link (plus ``libgcc_s``, which glibc loads at run time without ``ldd`` listing it) go into the
guest at their own paths.

``pwprobe`` (``tools/pwprobe.c``) forges, watches and replays L2TPv3 packets in the guest, which
has no Python: it is compiled with ``gcc -static`` here, from the source shipped with l2tpgen.

ESP needs ``esp4`` (``esp6`` over IPv6) and ``xfrm_user``, the AEAD's pieces (``gcm``,
``ghash-generic``, ``gf128mul``, ``ctr``, ``seqiv``, ``echainiv``, ``authenc``) and a kernel RNG
(``jitterentropy_rng``, ``drbg``): without the RNG, ``ip xfrm state add`` fails with "Kernel was
unable to initialize cryptographic operations".
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from importlib import resources
from pathlib import Path

from l2tpgen.lab.engines.cache import cached, digest, stamp
from l2tpgen.lab.engines.qemu import Extras, LabEnvironmentError

DEBS_ENV = "L2TPGEN_LAB_DEBS"
DEFAULT_DEBS = Path("/var/cache/l2tpgen-lab/debs")
DEB_PACKAGES = (
    "strongswan-charon",
    "strongswan-swanctl",
    "strongswan-libcharon",
    "libstrongswan",
    "libstrongswan-standard-plugins",
)
IPSEC_LIB = "/usr/lib/ipsec"
CHARON = f"{IPSEC_LIB}/charon"
SWANCTL = "/usr/sbin/swanctl"
# What a PSK-authenticated IKEv2 with AES-GCM or AES-CBC/SHA-2 and ECP or MODP groups needs.
PLUGINS = ("random", "nonce", "openssl", "kdf", "kernel-netlink", "socket-default", "vici")
ESP_MODULES = (
    "xfrm_algo",
    "xfrm_user",
    "esp4",
    "esp6",  # IPsec over an IPv6 underlay
    "gf128mul",
    "ghash-generic",
    "ctr",
    "gcm",
    "seqiv",
    "echainiv",
    "authenc",
    "sha512_generic",
    "jitterentropy_rng",
    "drbg",
)
PWPROBE = "/sbin/pwprobe"


def debs_directory() -> Path:
    """Where the strongSwan packages were downloaded."""
    return Path(os.environ.get(DEBS_ENV) or DEFAULT_DEBS)


def _download_hint(directory: Path) -> str:
    return (
        f"download them (as root, nothing is installed): mkdir -p {directory} && cd {directory} "
        f"&& apt-get download {' '.join(DEB_PACKAGES)}; or set {DEBS_ENV} to their directory"
    )


def missing_debs(directory: Path | None = None) -> tuple[str, ...]:
    """The strongSwan packages not found in the download directory."""
    directory = directory or debs_directory()
    found = (
        {p.name.split("_", 1)[0] for p in directory.glob("*.deb")} if directory.is_dir() else set()
    )
    return tuple(name for name in DEB_PACKAGES if name not in found)


def _unpack(directory: Path, into: Path) -> None:
    missing = missing_debs(directory)
    if missing:
        raise LabEnvironmentError(
            f"the strongSwan packages {', '.join(missing)} are not in {directory}; "
            + _download_hint(directory)
        )
    dpkg = shutil.which("dpkg-deb")
    if dpkg is None:
        raise LabEnvironmentError("dpkg-deb is not installed (package dpkg)")
    for name in DEB_PACKAGES:
        deb = max(directory.glob(f"{name}_*.deb"))
        subprocess.run([dpkg, "-x", str(deb), str(into)], check=True, capture_output=True)  # noqa: S603


def _libraries(binary: Path, ipsec: Path) -> list[str]:
    env = {**os.environ, "LD_LIBRARY_PATH": str(ipsec)}
    out = subprocess.run(  # noqa: S603
        ["ldd", str(binary)],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    return [p for p in re.findall(r"(/\S+\.so[.\d]*)", out) if not p.startswith(str(ipsec))]


def _libgcc() -> str:
    for candidate in (
        "/lib/x86_64-linux-gnu/libgcc_s.so.1",
        "/usr/lib/x86_64-linux-gnu/libgcc_s.so.1",
    ):
        if Path(candidate).exists():
            return candidate
    raise LabEnvironmentError("libgcc_s.so.1 not found (package libgcc-s1)")


def strongswan_files(
    directory: Path | None = None,
) -> tuple[list[tuple[str, bytes, int]], list[tuple[str, str]]]:
    """charon, swanctl, their libraries and plugins: (files, symlinks) for the initramfs."""
    files: list[tuple[str, bytes, int]] = []
    links: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="l2tpgen-strongswan-") as work:
        root = Path(work)
        _unpack(directory or debs_directory(), root)
        ipsec = root / IPSEC_LIB.lstrip("/")
        binaries = [root / CHARON.lstrip("/"), root / SWANCTL.lstrip("/")]
        binaries += [ipsec / "plugins" / f"libstrongswan-{name}.so" for name in PLUGINS]
        for entry in sorted(ipsec.iterdir()):
            if entry.is_symlink():
                links.append((f"{IPSEC_LIB}/{entry.name}", str(entry.readlink())))
            elif entry.is_file() and ".so" in entry.name:
                binaries.append(entry)
        host: set[str] = {_libgcc()}
        for binary in binaries:
            files.append((f"/{binary.relative_to(root)}", binary.read_bytes(), 0o100755))
            host.update(_libraries(binary, ipsec))
        files += [(lib, Path(lib).read_bytes(), 0o100755) for lib in sorted(host)]
    return files, links


def build_pwprobe() -> bytes:
    """``pwprobe`` compiled statically from the source shipped with l2tpgen (once: cached)."""
    source = resources.files("l2tpgen.lab").joinpath("tools/pwprobe.c").read_text()
    gcc = shutil.which("gcc")
    key = digest([source, stamp(gcc)]) if gcc is not None else None
    if key is None:
        return _compile_pwprobe()
    return cached("pwprobe", key, _compile_pwprobe)


def _compile_pwprobe() -> bytes:
    gcc = shutil.which("gcc")
    if gcc is None:
        raise LabEnvironmentError(
            "gcc is not installed: the lab compiles its packet tool "
            "(apt-get install -y gcc libc6-dev)"
        )
    source = resources.files("l2tpgen.lab").joinpath("tools/pwprobe.c").read_text()
    with tempfile.TemporaryDirectory(prefix="l2tpgen-pwprobe-") as work:
        path, binary = Path(work) / "pwprobe.c", Path(work) / "pwprobe"
        path.write_text(source)
        done = subprocess.run(  # noqa: S603
            [gcc, "-static", "-O2", "-o", str(binary), str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise LabEnvironmentError(
                "gcc could not build the lab's packet tool statically (apt-get install -y gcc "
                f"libc6-dev): {done.stderr.strip()[-400:]}"
            )
        return binary.read_bytes()


def protection_extras(directory: Path | None = None) -> Extras:
    """Everything the protection checks need in the guest."""
    files, links = strongswan_files(directory)
    files.append((PWPROBE, build_pwprobe(), 0o100755))
    return Extras(tuple(files), tuple(links), ESP_MODULES)


def missing_prerequisites() -> tuple[str, ...]:
    """What the protection checks need that this machine lacks (empty when all are there)."""
    missing = [f"{name} (apt-get download)" for name in missing_debs()]
    missing += [p for p in ("gcc", "dpkg-deb") if shutil.which(p) is None]
    return tuple(missing)
