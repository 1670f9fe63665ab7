"""The settings pyiceberg and delta-rs need for a warehouse in an object store, from the standard
environment each store's own clients read (as :mod:`kafkaspec.logdir.store` does for the source):
``AWS_ENDPOINT_URL`` and ``AWS_DEFAULT_REGION`` (S3), ``STORAGE_EMULATOR_HOST`` (GCS: an emulator),
``AZURE_STORAGE_CONNECTION_STRING`` (Azure). Neither library reads those itself for every store:
pyiceberg's file IO takes its own properties, delta-rs refuses a plain-http endpoint unless told and
knows no connection string."""

from __future__ import annotations

import os

#: what a GCS emulator is given as the OAuth token (it checks none; Google's own clients send none to
#: it), and when pyarrow's GCS client, which takes a token only with its expiry, is to think it expires
_EMULATOR_TOKEN = ("emulator", str(2**42))


def _azure() -> dict[str, str]:
    """The fields of ``AZURE_STORAGE_CONNECTION_STRING`` (``Key=value;...``), empty without it."""
    text = os.environ.get("AZURE_STORAGE_CONNECTION_STRING", "")
    return dict(part.split("=", 1) for part in text.split(";") if "=" in part)


def iceberg_properties() -> dict[str, str]:
    """pyiceberg's file IO properties for the stores the environment names."""
    env = os.environ
    out = {
        prop: env[var]
        for prop, var in (("s3.endpoint", "AWS_ENDPOINT_URL"), ("s3.region", "AWS_DEFAULT_REGION"))
        if env.get(var)
    }
    if host := env.get("STORAGE_EMULATOR_HOST"):
        out["gcs.service.host"] = host if "://" in host else "http://" + host
        out["gcs.oauth2.token"], out["gcs.oauth2.token-expires-at"] = _EMULATOR_TOKEN
    azure = _azure()
    if azure:
        out["adls.connection-string"] = env[
            "AZURE_STORAGE_CONNECTION_STRING"
        ]  # pyiceberg's fsspec IO (adlfs)
        if "AccountName" in azure and "AccountKey" in azure:
            out["adls.account-name"], out["adls.account-key"] = azure["AccountName"], azure["AccountKey"]
        if endpoint := azure.get("BlobEndpoint"):  # its pyarrow IO, on an endpoint of its own (Azurite)
            scheme, _, rest = endpoint.partition("://")
            authority = rest.split("/", 1)[0]
            for service in ("blob", "dfs"):
                out[f"adls.{service}-storage-authority"] = authority
                out[f"adls.{service}-storage-scheme"] = scheme
    return out


def delta_options(dest: str) -> dict[str, str] | None:
    """delta-rs's storage options for ``dest``: S3 on a plain-http endpoint (a local S3 server) allowed
    when the endpoint's scheme says so; Azure from the connection string. None: delta-rs's own reading
    of the environment is enough (and GCS: delta-rs speaks GCS's XML API, which it reaches through
    ``GOOGLE_APPLICATION_CREDENTIALS``, not through an emulator's host)."""
    if dest.startswith("s3://") and os.environ.get("AWS_ENDPOINT_URL", "").startswith("http://"):
        return {"AWS_ALLOW_HTTP": "true"}
    azure = _azure()
    if dest.startswith(("abfs://", "abfss://", "az://", "adl://")) and azure:
        out = {}
        if "AccountName" in azure and "AccountKey" in azure:
            out["azure_storage_account_name"] = azure["AccountName"]
            out["azure_storage_account_key"] = azure["AccountKey"]
        if endpoint := azure.get("BlobEndpoint"):
            out["azure_storage_endpoint"] = endpoint.rstrip("/")
            if endpoint.startswith("http://"):
                out["allow_http"] = "true"
        return out or None
    return None
