"""OpenTelemetry traces: off by default; on when the standard OTLP variables say where to
send them (``OTEL_EXPORTER_OTLP_ENDPOINT`` or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``, or
``OTEL_TRACES_EXPORTER=otlp``; ``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES``,
``OTEL_EXPORTER_OTLP_HEADERS``, ``OTEL_TRACES_SAMPLER`` as usual).

Spans: each HTTP request (Flask), each SQL statement (psycopg), each outbound HTTP call
(requests, urllib3: the webhook deliveries), and each RQ job. A job carries the trace
context of whoever queued it in its ``meta`` (``TracedJob``), so one trace follows a
command from its HTTP request through the fan-out job to each webhook delivery.
"""

from __future__ import annotations

import logging
import os

from opentelemetry import context, propagate, trace
from rq.job import Job

log = logging.getLogger(__name__)

_ENABLING = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
_on = False


def wanted() -> bool:
    """Do the standard variables ask for traces?"""
    if os.environ.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return False
    exporter = os.environ.get("OTEL_TRACES_EXPORTER", "").lower()
    if exporter == "none":
        return False
    return exporter == "otlp" or any(os.environ.get(name) for name in _ENABLING)


def enabled() -> bool:
    return _on


def setup(service_name: str, exporter=None) -> bool:
    """Start tracing in this process when ``wanted()`` (or ``exporter`` is given: a test's
    in-memory one, exported span by span). Instruments psycopg, requests and urllib3
    here; Flask per app (``instrument_flask``). Returns whether tracing is on."""
    global _on
    if _on or (exporter is None and not wanted()):
        return _on
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor
    from opentelemetry.instrumentation.requests import RequestsInstrumentor
    from opentelemetry.instrumentation.urllib3 import URLLib3Instrumentor
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    resource = Resource.create({SERVICE_NAME: os.environ.get("OTEL_SERVICE_NAME") or service_name})
    provider = TracerProvider(resource=resource)  # the sampler from OTEL_TRACES_SAMPLER
    if exporter is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))  # OTEL_EXPORTER_OTLP_*
    else:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    PsycopgInstrumentor().instrument(enable_commenter=False, skip_dep_check=True)
    RequestsInstrumentor().instrument()
    URLLib3Instrumentor().instrument()
    _on = True
    log.info("tracing on: spans of %s", service_name)
    return True


def stop() -> None:
    """Tracing off again in this process (tests): the libraries uninstrumented."""
    global _on
    if not _on:
        return
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor
    from opentelemetry.instrumentation.requests import RequestsInstrumentor
    from opentelemetry.instrumentation.urllib3 import URLLib3Instrumentor

    for instrumentor in (PsycopgInstrumentor(), RequestsInstrumentor(), URLLib3Instrumentor()):
        instrumentor.uninstrument()
    _on = False


def instrument_flask(app) -> None:
    if _on:
        from opentelemetry.instrumentation.flask import FlaskInstrumentor

        FlaskInstrumentor().instrument_app(app, excluded_urls="/v1/health.*")


class TracedJob(Job):
    """An RQ job that carries its sender's trace context (``meta["otel"]``) and runs in a
    span of its own, a child of that context."""

    @classmethod
    def create(cls, *args, **kwargs):
        job = super().create(*args, **kwargs)
        if _on:
            carrier: dict[str, str] = {}
            propagate.inject(carrier)
            if carrier:
                job.meta["otel"] = carrier
        return job

    def perform(self):
        carrier = self.meta.get("otel") if _on else None
        if not _on:
            return super().perform()
        token = context.attach(propagate.extract(carrier or {}))
        try:
            tracer = trace.get_tracer("entrepot.jobs")
            with tracer.start_as_current_span(
                    f"job {self.func_name.rsplit('.', 1)[-1]}", kind=trace.SpanKind.CONSUMER,
                    attributes={"messaging.system": "rq", "messaging.destination.name": self.origin,
                                "messaging.message.id": self.id, "code.function.name": self.func_name}):
                return super().perform()
        finally:
            context.detach(token)
