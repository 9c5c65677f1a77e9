"""Verifies regintel's webhook deliveries with the official Standard Webhooks package.

Reads a JSON file (argv[1]): {"deliveries": [{"headers": {...}, "body": "...", "secrets": [...]}]}.
Each delivery must verify with each of its secrets, and its body must be the event envelope whose
id is the webhook-id header. A tampered body must fail. Prints "ok <n>".
"""
import json
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def check(condition, message):
    """An assertion that `python -O` cannot remove."""
    if not condition:
        raise AssertionError(message)

cases = json.load(open(sys.argv[1]))["deliveries"]
for case in cases:
    headers, body = case["headers"], case["body"]
    for secret in case["secrets"]:
        event = Webhook(secret).verify(body, headers)
        check(event["id"] == headers["webhook-id"], (event, headers))
        check(set(event) == {"id", "type", "timestamp", "api_version", "data"}, event)
        try:
            Webhook(secret).verify(body.replace("}", " }", 1), headers)
        except WebhookVerificationError:
            pass
        else:
            raise AssertionError("a tampered body verified")
print("ok", len(cases))
