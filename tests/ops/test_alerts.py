"""deploy/alerts.yml: valid YAML in Prometheus's rule-file shape, naming only metrics the
server exports (a renamed metric would silence its alert)."""

from __future__ import annotations

import re

import yaml

from tests.conftest import ROOT


def test_every_alert_names_metrics_the_server_exports():
    rules = yaml.safe_load((ROOT / "deploy" / "alerts.yml").read_text())
    alerts = [rule for group in rules["groups"] for rule in group["rules"]]
    assert {"EntrepotNoWorker", "EntrepotTimersLate", "EntrepotWebhookDeliveriesFailing"} <= {a["alert"] for a in alerts}
    exported = set(re.findall(r'"(entrepot_[a-z_]+)"', (ROOT / "service" / "observability" / "metrics.py").read_text()))
    assert "entrepot_workers" in exported and "entrepot_timer_lateness_seconds" in exported
    for alert in alerts:
        assert alert["expr"].strip() and alert["annotations"]["summary"]
        for name in re.findall(r"entrepot_[a-z_]+", alert["expr"]):
            base = re.sub(r"_(bucket|count|sum)$", "", name)
            assert name in exported or base in exported, f"{alert['alert']}: no metric {name}"
