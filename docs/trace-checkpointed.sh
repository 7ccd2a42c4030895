#!/usr/bin/env bash
# Makes docs/trace-checkpointed.png, the picture of docs/sperli-trace.md: the checkpointed example on 4 ranks, rank 2
# killed by the test kit as it enters the checkpoint of epoch 3, the job restarted and resumed from epoch 2. The
# examples' CheckpointedJobTest writes the trace (examples/target/trace-checkpointed.json); scripts/trace-png.py draws
# it headless (rsvg-convert: Debian package librsvg2-bin). Words given to this script go to Maven (for example -o).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -q "$@" -pl examples -am test -Dtest=CheckpointedJobTest -Dsurefire.failIfNoSpecifiedTests=false
python3 scripts/trace-png.py examples/target/trace-checkpointed.json docs/trace-checkpointed.png \
    --title "checkpointed example, 4 ranks (60 steps, a checkpoint every 10): rank 2 killed entering epoch 3;\
 incarnation 2 resumes epoch 2"
echo "docs/trace-checkpointed.png from examples/target/trace-checkpointed.json"
