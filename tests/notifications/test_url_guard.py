"""Issue 26, item 11: the webhook address check covers every IPv6 form that embeds an IPv4
address, the reserved blocks Python calls global, and its refusals say nothing of how a
name resolves. Registered through the API on real PostgreSQL (private addresses not
allowed); a refused address is refused at delivery time by the same check."""

from __future__ import annotations

import pytest

from service.notifications.url_guard import refused_address
from tests.notifications.conftest import new_player
from tests.notifications.test_webhooks_api import guarded, register  # noqa: F401  (fixture)
from tests.refusals import problem

EMBEDDING_PRIVATE = [
    "http://[2002:7f00:1::1]/hook",  # 6to4 of 127.0.0.1
    "http://[2002:a9fe:a9fe::1]/hook",  # 6to4 of 169.254.169.254
    "http://[2002:c0a8:1::1]/hook",  # 6to4 of 192.168.0.1
    "http://[64:ff9b::7f00:1]/hook",  # NAT64 of 127.0.0.1
    "http://[64:ff9b::a9fe:a9fe]/hook",  # NAT64 of 169.254.169.254
    "http://[64:ff9b:1::a00:1]/hook",  # local-use NAT64 of 10.0.0.1
    "http://[::ffff:a9fe:a9fe]/hook",  # IPv4-mapped
    "http://[::127.0.0.1]/hook",  # IPv4-compatible
    "http://[::ffff:0:a00:1]/hook",  # IPv4-translated of 10.0.0.1
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook",  # Teredo, client 127.0.0.1
    "http://[fec0::1]/hook",  # site-local
    "http://[fd00::1]/hook",  # unique local
    "http://192.0.0.8/hook",  # IETF protocol assignments
    "http://192.0.0.170/hook",
    "http://198.18.0.1/hook",  # benchmarking
    "http://100.64.0.1/hook",  # carrier-grade NAT
    "http://2130706433/hook",  # 127.0.0.1 as one number
]


@pytest.mark.parametrize("url", EMBEDDING_PRIVATE)
def test_every_form_of_a_private_address_is_refused(guarded, url):  # noqa: F811
    me = new_player(guarded, "Ssrf6")
    refused = register(guarded, me, url)
    assert refused.status_code == 422, refused.json
    assert refused.json["code"] == "webhook_url_refused"


@pytest.mark.parametrize("address", ["8.8.8.8", "2606:4700::1111", "2002:808:808::1"])
def test_public_addresses_and_their_wrappings_are_allowed(address):
    assert refused_address(address) is None


def test_a_refusal_says_nothing_of_how_a_name_resolves(guarded):  # noqa: F811
    me = new_player(guarded, "Prober")
    answers = {}
    for host in ("localhost", "no-such-host.invalid", "10.1.2.3", "[fec0::1]"):
        refused = register(guarded, me, f"http://{host}:8000/hook")
        problem(refused, 422, "webhook_url_refused")
        answers[host] = refused.json["detail"].replace(host.strip("[]"), "HOST")
    assert len(set(answers.values())) == 1, answers  # one answer, whatever the name resolves to
    detail = next(iter(answers.values()))
    for telltale in ("loopback", "private", "resolve", "127.", "::1"):
        assert telltale not in detail
