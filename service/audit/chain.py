"""The hash chain, as the service writes it: defined once in verifier/chain.py (the
offline verifier must not import the service), re-exported here for the service."""

from verifier.chain import (  # noqa: F401
    CHAIN,
    CHAIN_V1,
    CHAIN_V2,
    CHAIN_V3,
    canonical_json,
    covers_steps,
    format_time,
    genesis,
    link,
    record_of,
    step_of,
    verify,
)
