"""The device rows of a `kernelport verify --device cuda --format json` report: how many passed,
and per kernel the detail (its largest difference to the emulator)."""
import json
import sys

report = json.load(open(sys.argv[1]))
files = report if isinstance(report, list) else report.get("files", [report])
rows = [c for f in files for c in f["checks"] if c["kind"] == "device"]
for c in rows:
    print(f"{c['status']:5} {c['kernel']}: {c['detail']}")
print(f"{sum(c['status'] == 'pass' for c in rows)} of {len(rows)} device checks pass")
