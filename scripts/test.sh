#!/usr/bin/env bash
# The project's test command (named in README.md): all Maven tests, then the vectors cross-check in Python.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp clean verify
python3 scripts/sperli-vectors.py --check
# One plain closing line over every module's Surefire reports.
python3 - <<'PY'
import glob, xml.etree.ElementTree as ET
tests = failed = skipped = 0
for f in glob.glob('*/target/surefire-reports/TEST-*.xml'):
    r = ET.parse(f).getroot()
    tests += int(r.get('tests', 0)); skipped += int(r.get('skipped', 0))
    failed += int(r.get('failures', 0)) + int(r.get('errors', 0))
print(f"{tests - failed - skipped} passed, {failed} failed, {skipped} skipped")
PY
