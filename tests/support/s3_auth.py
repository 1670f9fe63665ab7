"""An S3 server that checks every request's signature: moto's server with its IAM authentication on,
and one IAM user allowed everything, whose keys the tests use (``support.s3``'s fixed keys are refused).

moto checks nothing until told to (its ``INITIAL_NO_AUTH_ACTION_COUNT``, infinite by default): the user
and its access key are created through moto's IAM API first, then ``/moto-api/reset-auth`` turns the
check on for every later request (SigV4 recomputed from the user's secret, the user's policies applied).
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass

from support.s3 import REGION, S3Server, start_server

#: the user's policy: every action on every resource (the tests check the signature, not permissions)
EVERYTHING = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}


@dataclass
class CheckingS3Server(S3Server):
    """:class:`support.s3.S3Server` whose ``env()`` and ``filesystem()`` carry the IAM user's keys."""

    access_key: str = ""
    secret_key: str = ""

    def env(self) -> dict[str, str]:
        return {
            **super().env(),
            "AWS_ACCESS_KEY_ID": self.access_key,
            "AWS_SECRET_ACCESS_KEY": self.secret_key,
        }

    def filesystem(self, secret: str | None = None):
        """A pyarrow S3 filesystem with the user's keys (its secret replaced by ``secret`` if given)."""
        from pyarrow import fs

        return fs.S3FileSystem(
            endpoint_override=self.endpoint,
            access_key=self.access_key,
            secret_key=self.secret_key if secret is None else secret,
            region=REGION,
            allow_bucket_creation=True,
            allow_bucket_deletion=True,
        )


def start_checking_server() -> CheckingS3Server:
    """A moto server on a free port whose requests must be signed with the keys it hands back."""
    import boto3

    plain = start_server()
    try:
        iam = boto3.client(
            "iam",
            endpoint_url=plain.endpoint,
            region_name=REGION,
            aws_access_key_id="AKIAKAFKASPECSETUP01",
            aws_secret_access_key="not-checked-yet",
        )
        iam.create_user(UserName="kafkaspec-writer")
        iam.put_user_policy(
            UserName="kafkaspec-writer", PolicyName="everything", PolicyDocument=json.dumps(EVERYTHING)
        )
        key = iam.create_access_key(UserName="kafkaspec-writer")["AccessKey"]
        on = urllib.request.Request(
            f"{plain.endpoint}/moto-api/reset-auth",
            data=b"0",  # no more requests without a check
            headers={"Content-Type": "text/plain"},
            method="POST",
        )
        urllib.request.urlopen(on, timeout=30).read()
    except BaseException:
        plain.stop()
        raise
    return CheckingS3Server(plain.endpoint, plain.process, key["AccessKeyId"], key["SecretAccessKey"])
