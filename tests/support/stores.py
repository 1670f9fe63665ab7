"""Real GCS and Azure Blob servers for the tests, beside moto's S3 (``support.s3``): Google's
storage API from ``gcp-storage-emulator`` and Microsoft's Azurite, each in a subprocess on a free
port of 127.0.0.1, reached the way a user reaches a private endpoint (``STORAGE_EMULATOR_HOST``;
``AZURE_STORAGE_CONNECTION_STRING``).

Every server class has the face of ``support.s3.S3Server``: ``env()`` (the standard settings),
``new_bucket()``, ``upload(local, bucket, prefix) -> URI``, ``filesystem()`` (a pyarrow filesystem
for the tests' own set-up), ``uri(bucket, key)`` and ``stop()``. ``start(kind)`` starts one of
``s3``, ``gcs``, ``azure``.
"""

from __future__ import annotations

import datetime
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

from support.s3 import S3Server, free_port, start_server

REPO = Path(__file__).resolve().parents[2]
#: where ``make tools`` installs Azurite (npm package ``azurite``), git-ignored
AZURITE = REPO / ".tools" / "node_modules" / ".bin" / "azurite-blob"
#: Azurite's published development account and key (the same on every machine; not a secret)
AZURE_ACCOUNT = "devstoreaccount1"
AZURE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
KINDS = ("s3", "gcs", "azure")


def endpoint_settings(scheme: str, endpoint: str) -> tuple[dict[str, str], str]:
    """The standard environment settings pointing ``scheme`` (``gs``, ``az``, ``abfs``, ``abfss``) at the
    server at ``endpoint``, and a URI on it."""
    if scheme == "gs":
        return {"STORAGE_EMULATOR_HOST": endpoint}, "gs://some-bucket/backup"
    env = {
        "AZURE_STORAGE_CONNECTION_STRING": f"DefaultEndpointsProtocol=http;AccountName={AZURE_ACCOUNT};"
        f"AccountKey={AZURE_KEY};BlobEndpoint={endpoint}/{AZURE_ACCOUNT};"
    }
    if scheme == "az":
        return env, "az://some-container/backup"
    return env, f"{scheme}://some-container@{AZURE_ACCOUNT}.dfs.core.windows.net/backup"


def _wait(proc: subprocess.Popen, url: str, what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except urllib.error.HTTPError:
            return  # it answers (Azurite: 400 for a bare GET)
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"{what} did not start ({url}, exit code {proc.poll()})") from None
            time.sleep(0.1)


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(3)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _upload(local: Path, dest: str, filesystem) -> None:
    from pyarrow import fs

    fs.copy_files(str(local), dest, source_filesystem=fs.LocalFileSystem(), destination_filesystem=filesystem)


@dataclass
class GcsServer:
    host: str  #: host:port, as STORAGE_EMULATOR_HOST takes it
    process: subprocess.Popen
    scheme = "gs"

    def env(self) -> dict[str, str]:
        return {"STORAGE_EMULATOR_HOST": f"http://{self.host}"}

    def filesystem(self):
        """pyarrow's own GCS client on the emulator (the tests' uploads; it writes no folder objects, so
        a listing of what it wrote shows the prefixes only to a client that reads GCS's ``prefixes``)."""
        from pyarrow import fs

        return fs.GcsFileSystem(
            anonymous=True,
            endpoint_override=self.host,
            scheme="http",
            project_id="test",
            retry_time_limit=datetime.timedelta(seconds=10),
        )

    def new_bucket(self) -> str:
        name = f"b-{uuid.uuid4().hex[:12]}"
        self.filesystem().create_dir(name)
        return name

    def uri(self, bucket: str, key: str = "") -> str:
        return f"gs://{bucket}/{key}".rstrip("/")

    def upload(self, local: Path, bucket: str, prefix: str) -> str:
        _upload(local, f"{bucket}/{prefix.strip('/')}", self.filesystem())
        return self.uri(bucket, prefix.strip("/"))

    def stop(self) -> None:
        _stop(self.process)


@dataclass
class AzureServer:
    endpoint: str  #: http://127.0.0.1:PORT/devstoreaccount1, the connection string's BlobEndpoint
    process: subprocess.Popen
    workdir: Path
    scheme = "abfs"

    def connection_string(self, key: str = AZURE_KEY) -> str:
        return (
            f"DefaultEndpointsProtocol=http;AccountName={AZURE_ACCOUNT};AccountKey={key};"
            f"BlobEndpoint={self.endpoint};"
        )

    def env(self) -> dict[str, str]:
        return {"AZURE_STORAGE_CONNECTION_STRING": self.connection_string()}

    def filesystem(self):
        from pyarrow import fs

        authority = self.endpoint.split("://", 1)[1].split("/", 1)[0]
        return fs.AzureFileSystem(
            account_name=AZURE_ACCOUNT,
            account_key=AZURE_KEY,
            blob_storage_authority=authority,
            blob_storage_scheme="http",
            dfs_storage_authority=authority,
            dfs_storage_scheme="http",
        )

    def new_bucket(self) -> str:
        name = f"c-{uuid.uuid4().hex[:12]}"
        self.filesystem().create_dir(name)
        return name

    def uri(self, bucket: str, key: str = "") -> str:
        return f"abfs://{bucket}@{AZURE_ACCOUNT}.dfs.core.windows.net/{key}".rstrip("/")

    def upload(self, local: Path, bucket: str, prefix: str) -> str:
        _upload(local, f"{bucket}/{prefix.strip('/')}", self.filesystem())
        return self.uri(bucket, prefix.strip("/"))

    def stop(self) -> None:
        _stop(self.process)
        shutil.rmtree(self.workdir, ignore_errors=True)


def start_gcs(timeout: float = 30.0) -> GcsServer:
    port = free_port()
    exe = Path(sys.executable).with_name("gcp-storage-emulator")
    if not exe.exists():
        raise RuntimeError("gcp-storage-emulator is not installed: pip install -e '.[dev]'")
    proc = subprocess.Popen(
        [str(exe), "start", "--in-memory", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait(proc, f"http://127.0.0.1:{port}/storage/v1/b", "gcp-storage-emulator", timeout)
    return GcsServer(f"127.0.0.1:{port}", proc)


def start_azure(timeout: float = 60.0) -> AzureServer:
    """Azurite's blob service (``--skipApiVersionCheck``: pyarrow's Azure SDK speaks a newer API version
    than Azurite accepts otherwise)."""
    if not AZURITE.exists():
        hint = (
            "make tools"
            if shutil.which("npm")
            else "npm is missing: install Node.js and npm, then make tools"
        )
        raise RuntimeError(f"Azurite is not installed at {AZURITE.relative_to(REPO)} ({hint})")
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="azurite-"))  # its working folder (debug logs), removed by stop()
    proc = subprocess.Popen(
        [
            str(AZURITE),
            "--skipApiVersionCheck",
            "--inMemoryPersistence",
            "--silent",
            "--blobHost",
            "127.0.0.1",
            "--blobPort",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=workdir,
    )
    _wait(proc, f"http://127.0.0.1:{port}/{AZURE_ACCOUNT}?comp=list", "Azurite", timeout)
    return AzureServer(f"http://127.0.0.1:{port}/{AZURE_ACCOUNT}", proc, workdir)


def start(kind: str) -> S3Server | GcsServer | AzureServer:
    if kind == "s3":
        return start_server()
    if kind == "gcs":
        return start_gcs()
    if kind == "azure":
        return start_azure()
    raise ValueError(kind)
