"""Receipts over HTTP, the published keys, and `entrepot verify` on an auditor's machine:
a fresh virtual environment with PyNaCl only (no Flask, psycopg or redis), holding only
domain/ and verifier/."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

import pytest

from service.runtime.entry import main as entrepot
from tests.api.seating import accept_invitations
from tests.conftest import ROOT

pytestmark = pytest.mark.slow(seconds=35)  # started first: tests/conftest.py


@pytest.fixture(scope="module")
def played(tmp_path_factory, app):
    """A Kontor game played to its end over HTTP; its record, receipts and the keys, as files."""
    from tests.openapi_check import ValidatingClient

    client = ValidatingClient(app.test_client())
    red, black = (client.post("/v1/players", json={"name": n}).json for n in ("Red", "Black"))
    tokens = [red["token"], black["token"]]
    game = accept_invitations(client, client.post("/v1/games", token=red["token"], json={
        "title": "kontor", "seats": [{"player_id": red["id"]}, {"player_id": black["id"]}]}).json, [black])
    rng, responses = random.Random(5), []
    while game["status"] != "finished":
        seat = rng.choice(game["to_act"])
        legal = client.get(f"/v1/games/{game['id']}/legal-commands", token=tokens[seat]).json
        response = client.post(f"/v1/games/{game['id']}/commands", token=tokens[seat], json={
            "command": rng.choice(legal["commands"]), "expected_version": legal["version"]})
        assert response.status_code == 201
        responses.append(response.json)
        game = client.get(f"/v1/games/{game['id']}").json
    folder = tmp_path_factory.mktemp("audit")
    files = {
        "record": client.get(f"/v1/games/{game['id']}/export").json,
        "keys": client.get("/v1/keys").json,
        "response": responses[len(responses) // 2],  # a whole command response, as a client kept it
        "receipts": [r["receipt"] for r in responses],
    }
    for name, body in files.items():
        (folder / f"{name}.json").write_text(json.dumps(body))
    return folder, files


def test_every_command_response_carries_a_receipt_signed_by_a_published_key(played):
    _, files = played
    key_ids = {k["key_id"] for k in files["keys"]["keys"]}
    receipts = files["receipts"]
    assert receipts and all(r["key_id"] in key_ids and r["game_id"] == files["record"]["game_id"] for r in receipts)
    assert all(k["algorithm"] == "Ed25519" and k["valid_from"] for k in files["keys"]["keys"])
    assert files["record"]["keys"] == files["keys"]["keys"]


def test_entrepot_verify_checks_a_record_and_its_receipts(played, capsys):
    folder, files = played
    steps = len(files["record"]["steps"])
    code = entrepot(["verify", str(folder / "record.json"), "--receipt", str(folder / "response.json"),
                     "--receipt", str(folder / "receipts.json"), "--keys", str(folder / "keys.json")])
    out = capsys.readouterr().out.strip()
    assert code == 0
    assert out == f"verified: {steps} steps, every event re-derived; {len(files['receipts']) + 1} receipt(s) match"


def test_entrepot_verify_names_the_first_failing_step(played, tmp_path, capsys):
    _, files = played
    record = json.loads(json.dumps(files["record"]))
    record["steps"][3]["events"][0]["data"]["forged"] = True
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(record))
    assert entrepot(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith("FAILED at step 3: chain: broken chain link at event")
    assert entrepot(["verify", str(tmp_path / "absent.json")]) == 2
    assert "cannot read the record" in capsys.readouterr().err


@pytest.fixture(scope="module")
def auditor_venv(tmp_path_factory):
    """A clean virtual environment with PyNaCl alone, from the machine's package index."""
    venv = tmp_path_factory.mktemp("auditor") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "pynacl"],
                   check=True, capture_output=True)
    return python


def test_the_verifier_runs_without_the_servers_dependencies(played, auditor_venv, tmp_path):
    folder, files = played
    source = tmp_path / "src"
    for package in ("domain", "verifier"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    env = {"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"}
    missing = subprocess.run([str(auditor_venv), "-c", "import flask"], env=env, capture_output=True)
    assert b"No module named 'flask'" in missing.stderr
    for absent in ("psycopg", "redis", "marshmallow"):
        assert subprocess.run([str(auditor_venv), "-c", f"import {absent}"], env=env).returncode == 1
    run = subprocess.run(
        [str(auditor_venv), "-m", "verifier", str(folder / "record.json"),
         "--receipt", str(folder / "receipts.json"), "--keys", str(folder / "keys.json")],
        env=env, capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"verified: {len(files['record']['steps'])} steps, every event re-derived")
    # the `entrepot` entry point dispatches `verify` without importing the server either
    run = subprocess.run(
        [str(auditor_venv), "-c", "import sys; from service.runtime.entry import main;"
         f" sys.exit(main(['verify', {str(folder / 'record.json')!r}]))"],
        env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("verified:")
