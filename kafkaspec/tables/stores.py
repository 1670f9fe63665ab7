"""The settings pyiceberg and delta-rs need for a warehouse in an object store, from the standard
environment each store's own clients read (as :mod:`kafkaspec.logdir.store` does for the source):
``AWS_ENDPOINT_URL`` and ``AWS_DEFAULT_REGION`` (S3), ``STORAGE_EMULATOR_HOST`` (GCS: an emulator),
``AZURE_STORAGE_CONNECTION_STRING`` (Azure). Neither library reads those itself for every store:
pyiceberg's file IO takes its own properties, delta-rs refuses a plain-http endpoint unless told and
knows no connection string.

A task that writes Iceberg data files on another machine (a Spark executor) gets the driver's settings
as well (:func:`iceberg_task_properties`): its own environment may lack them, keys included, or hold
others."""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..logdir.store.clients import StorageOptions

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


def iceberg_task_properties(
    catalog: Mapping[str, str], store: StorageOptions | None, location: str
) -> dict[str, str]:
    """The file IO properties of a task writing data files of the table at ``location`` away from the
    driver: the driver's table's (``catalog``: its file IO's properties, a REST catalog's own
    credentials among them, which win), and for what they leave out the driver's settings of the
    table's store (``store``, its :meth:`~kafkaspec.logdir.store.clients.StorageOptions.from_env`):
    S3's endpoint, region and keys, a GCS emulator's host, Azure's account, key and blob endpoint.
    Without them pyiceberg's file IO on an executor signs with whatever keys the executor's
    environment has, or none. Keys go only with the store and account they are for (a catalog's own
    S3 key id keeps its own secret and token)."""
    out = dict(catalog)
    if store is None:
        return out
    scheme = location.split("://", 1)[0].lower() if "://" in location else ""
    given: dict[str, str] = {}
    if scheme in ("s3", "s3a", "s3n"):
        if store.endpoint:
            given["s3.endpoint"] = store.endpoint
        if store.region:
            given["s3.region"] = store.region
        if store.access_key and store.secret_key and "s3.access-key-id" not in out:
            given["s3.access-key-id"], given["s3.secret-access-key"] = store.access_key, store.secret_key
            if store.session_token:
                given["s3.session-token"] = store.session_token
    elif scheme in ("gs", "gcs"):
        if (host := store.gcs_endpoint) and host != "default":
            given["gcs.service.host"] = host if "://" in host else "http://" + host
            given["gcs.oauth2.token"], given["gcs.oauth2.token-expires-at"] = _EMULATOR_TOKEN
    elif (
        scheme in ("abfs", "abfss", "az", "wasb", "wasbs")
        and store.azure_account
        and out.get("adls.account-name", store.azure_account) == store.azure_account
    ):
        given["adls.account-name"] = store.azure_account
        if store.azure_key:
            given["adls.account-key"] = store.azure_key
        if endpoint := store.azure_endpoint:  # pyiceberg's pyarrow IO, on an endpoint of its own
            scheme, _, rest = endpoint.partition("://") if "://" in endpoint else ("https", "", endpoint)
            for service in ("blob", "dfs"):
                given[f"adls.{service}-storage-authority"] = rest.split("/", 1)[0]
                given[f"adls.{service}-storage-scheme"] = scheme
    return {**given, **out}


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
