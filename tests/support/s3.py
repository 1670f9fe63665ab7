"""A real S3 API server for the tests: moto's server mode in a subprocess on 127.0.0.1.

``start_server()`` starts one on a free port and waits until it answers; the session fixture
``s3_server`` in ``tests/storage/conftest.py`` stops it at the end. Tests reach it the way a user
does, through the standard environment (``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ...).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

#: what the fixtures put in the environment (moto accepts any keys unless started with auth on)
ACCESS_KEY = "AKIAKAFKASPECTEST01"
SECRET_KEY = "kafkaspec-test-secret-9f3b2c1d7e"
REGION = "us-east-1"


@dataclass
class S3Server:
    endpoint: str
    process: subprocess.Popen
    scheme = "s3"

    def uri(self, bucket: str, key: str = "") -> str:
        return f"s3://{bucket}/{key}".rstrip("/")

    def env(self) -> dict[str, str]:
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_EC2_METADATA_DISABLED": "true",
        }

    def filesystem(self):
        """A pyarrow S3 filesystem on this server that may create buckets (the tests' own uploads)."""
        from pyarrow import fs

        return fs.S3FileSystem(
            endpoint_override=self.endpoint,
            access_key=ACCESS_KEY,
            secret_key=SECRET_KEY,
            region=REGION,
            allow_bucket_creation=True,
            allow_bucket_deletion=True,
        )

    def new_bucket(self) -> str:
        name = f"b-{uuid.uuid4().hex[:12]}"
        self.filesystem().create_dir(name)
        return name

    def upload(self, local: Path, bucket: str, prefix: str) -> str:
        """Copy the local folder ``local`` to ``s3://bucket/prefix/``; return that URI."""
        from pyarrow import fs

        dest = f"{bucket}/{prefix.strip('/')}"
        fs.copy_files(
            str(local), dest, source_filesystem=fs.LocalFileSystem(), destination_filesystem=self.filesystem()
        )
        return self.uri(dest)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(*, auth: bool = False, timeout: float = 30.0) -> S3Server:
    """Start ``python -m moto.server`` on a free port of 127.0.0.1; ``auth`` makes it check credentials
    (every request with keys it does not know is refused with HTTP 403)."""
    port = free_port()
    env = dict(os.environ)
    if auth:
        env["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/data.json", timeout=2).read()
            return S3Server(endpoint, proc)
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(
                    f"moto server did not start on port {port} (exit code {proc.poll()})"
                ) from None
            time.sleep(0.1)


class SilentServer:
    """A TCP server on 127.0.0.1 that accepts connections and never answers (a hung endpoint)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.endpoint = f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def close(self) -> None:
        self.sock.close()
